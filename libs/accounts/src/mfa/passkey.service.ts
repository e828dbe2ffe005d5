import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isUUID } from 'class-validator';
import { DataSource } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { LoginRepository, lockOf } from '../login.repository.js';
import { LoginService } from '../login.service.js';
import { MfaError, MfaErrorCode } from './mfa.errors.js';
import { MfaRepository } from './mfa.repository.js';
import type { Passkey } from './passkey.entity.js';
import { PasskeyRepository } from './passkey.repository.js';
import type { SecondFactorOutcome } from './second-factor.service.js';

/**
 * @simplewebauthn/server and the ASN.1 libraries under it (≈ 4 MB of heap, 10 MB of RSS) are loaded
 * at the first passkey operation, not by every process that imports the accounts context: the
 * identity replicas and the workers never use them.
 */
const webauthn = () => import('@simplewebauthn/server');

/** Who the passkeys are for: the admin app's host as WebAuthn's relying party, and its origin. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server) as an additional second factor, for people
 * who already have an authenticator app. The challenge lives in the caller's session and is used
 * once; a failed assertion counts toward the second-factor lockout like a wrong code.
 */
@Injectable()
export class PasskeyService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly passkeys: PasskeyRepository,
    private readonly factors: MfaRepository,
    private readonly logins: LoginRepository,
    private readonly login: LoginService,
    private readonly audit: AuditService,
  ) {}

  async list(tenantId: string, userId: string): Promise<PasskeyView[]> {
    return (await this.passkeys.listOf(tenantId, userId)).map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt }));
  }

  async registrationOptions(tenantId: string, user: { id: string; username: string; displayName: string }, rp: RelyingParty): Promise<PublicKeyCredentialCreationOptionsJSON> {
    if (!(await this.factors.hasConfirmed(user.id))) throw new MfaError(MfaErrorCode.NotEnrolled, 'Set up an authenticator app first.');
    const existing = await this.passkeys.listOf(tenantId, user.id);
    const { generateRegistrationOptions } = await webauthn();
    return generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.username,
      userDisplayName: user.displayName,
      userID: Uint8Array.from(Buffer.from(user.id, 'utf8')),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
  }

  /** Verifies the new credential against the session's challenge and keeps its public key. */
  async register(tenantId: string, userId: string, response: RegistrationResponseJSON, expected: { challenge: string; rp: RelyingParty; name: string }): Promise<boolean> {
    const { verifyRegistrationResponse } = await webauthn();
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: expected.rp.origin,
      expectedRPID: expected.rp.id,
      requireUserVerification: false,
    }).catch(() => null);
    if (!verification?.verified) return false;
    const { credential } = verification.registrationInfo;
    await this.dataSource.transaction(async (em) => {
      await this.passkeys.insert(em, {
        tenantId,
        userId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey),
        signCount: credential.counter,
        transports: credential.transports ?? [],
        name: expected.name,
      });
      await this.audit.record(em, { tenantId, actor: { type: 'user', userId, clientId: null }, action: 'user.mfa.passkey_added', targetType: 'user', targetId: userId, details: { name: expected.name } });
    });
    return true;
  }

  async authenticationOptions(tenantId: string, userId: string, rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
    const mine = await this.passkeys.listOf(tenantId, userId);
    if (!mine.length) return null;
    const { generateAuthenticationOptions } = await webauthn();
    return generateAuthenticationOptions({ rpID: rp.id, allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports as never })), userVerification: 'preferred' });
  }

  /** Checks an assertion of one of the person's passkeys; failures count toward the lockout. */
  async verify(tenantId: string, userId: string, response: AuthenticationResponseJSON | null, expected: { challenge: string | null; rp: RelyingParty }, source?: string): Promise<SecondFactorOutcome> {
    if (source && (await this.logins.sourceBlockedUntil(tenantId, source))) return { ok: false, lockedUntil: null, throttled: true };
    const candidate = await this.logins.findById(tenantId, userId);
    if (!candidate || candidate.status !== 'active') return { ok: false, lockedUntil: null };
    const locked = lockOf(candidate.lockedUntil, candidate.secondFactorLockedUntil);
    if (locked) return { ok: false, lockedUntil: locked };
    const passkey = response && expected.challenge ? await this.passkeys.find(tenantId, userId, response.id) : null;
    const accepted = passkey && (await this.check(passkey, response!, expected.challenge!, expected.rp));
    if (!accepted) return { ok: false, lockedUntil: await this.login.recordSecondFactorFailure(candidate, source) };
    await this.logins.recordSecondFactorSuccess(userId);
    await this.audit.record(this.dataSource.manager, { tenantId, actor: { type: 'user', userId, clientId: null }, action: 'user.mfa.succeeded', targetType: 'user', targetId: userId, details: { method: 'passkey', passkey: passkey.name } });
    return { ok: true, method: 'passkey' };
  }

  /** Removes one of one's own passkeys (the authenticator app and recovery codes stay). */
  async remove(tenantId: string, actor: Actor, userId: string, passkeyId: string): Promise<PasskeyView | null> {
    if (actor.userId !== userId) throw new MfaError(MfaErrorCode.NotPermitted, 'Only the person themselves removes a passkey.');
    if (!isUUID(passkeyId)) return null;
    return this.dataSource.transaction(async (em) => {
      const removed = await this.passkeys.remove(em, tenantId, userId, passkeyId);
      if (removed) await this.audit.record(em, { tenantId, actor, action: 'user.mfa.passkey_removed', targetType: 'user', targetId: userId, details: { name: removed.name } });
      return removed;
    });
  }

  private async check(passkey: Passkey, response: AuthenticationResponseJSON, challenge: string, rp: RelyingParty): Promise<boolean> {
    const { verifyAuthenticationResponse } = await webauthn();
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.signCount, transports: passkey.transports as never },
      requireUserVerification: false,
    }).catch(() => null);
    if (!verification?.verified) return false;
    return this.passkeys.recordUse(passkey.id, passkey.signCount, verification.authenticationInfo.newCounter);
  }
}

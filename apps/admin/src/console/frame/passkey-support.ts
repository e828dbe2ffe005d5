import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { RelyingParty } from '@gatehouse/accounts';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { SessionService } from '@gatehouse/sessions';
import { field } from './console-forms.js';

/**
 * The console's side of passkeys: the relying party (the host and origin of ADMIN_PUBLIC_URL), the
 * challenge kept in the session, the credential the page posts back as JSON in a form field.
 */
@Injectable()
export class PasskeySupport {
  readonly rp: RelyingParty;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: SessionService,
  ) {
    const url = new URL(config.adminPublicUrl);
    this.rp = { id: url.hostname, name: 'Gatehouse console', origin: url.origin };
  }

  /** Sends WebAuthn options to the page's script, keeping their challenge for this session. */
  async sendOptions(res: Response, sessionId: Buffer, options: { challenge: string } | null): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    if (!options) {
      res.status(404).json({ error: 'no_passkey' });
      return;
    }
    await this.sessions.setChallenge(sessionId, options.challenge);
    res.status(200).json(options);
  }

  /** The session's challenge (taken: used once) and the posted credential, parsed. */
  async takeResponse<T>(req: Request, sessionId: Buffer): Promise<{ challenge: string | null; response: T | null }> {
    const challenge = await this.sessions.takeChallenge(sessionId);
    return { challenge, response: parseCredential<T>(field(req, 'credential')) };
  }
}

function parseCredential<T>(text: string): T | null {
  if (!text || text.length > 12_000) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' ? (value as T) : null;
  } catch {
    return null;
  }
}

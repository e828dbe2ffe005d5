import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { ClientAuthenticator, assertEnabled, unknownClient } from '../client-authenticator.js';
import type { AssertedClient, AssertionInput } from '../client-assertion-authenticator.js';
import type { ClientSnapshot } from '../client-credentials.repository.js';
import { SigningKeyService } from '../signing-key.service.js';
import { TokenRequestError, TokenRequestErrorCode } from '../token-request.errors.js';
import { type FederatedAssertion, checkExternalLifetime, quoted } from './external-token.js';
import { FederatedCredentialDirectory } from './federated-credential-directory.js';
import { matchCredential } from './federated-match.js';
import { type VerificationKey, candidateKeys, signatureVerifiesWith } from './issuer-key-set.js';
import { IssuerKeys, IssuerUnavailableError } from './issuer-keys.js';

const TENANT_ISSUER = /^\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/v2\.0$/;

/** The tenant whose tokens this issuer names, when it is this Gatehouse's own (`{PUBLIC_URL}/{tenant id}/v2.0`). */
export function selfIssuedTenant(publicUrl: string, issuer: string): string | null {
  if (!issuer.startsWith(`${publicUrl}/`)) return null;
  return TENANT_ISSUER.exec(issuer.slice(publicUrl.length))?.[1] ?? null;
}

/**
 * Client authentication with a federated credential (Entra's workload identity federation): the
 * `client_assertion` is a token another issuer signed — a GitHub Actions job's, a Kubernetes
 * service account's, another tenant's. In this order: its lifetime (5 minutes of skew, 24 hours at
 * most), a credential of the client that accepts its issuer, audience and subject, then its
 * signature with a key the issuer publishes. Keys are fetched only for an issuer one of the
 * client's credentials names, so a flood naming random issuers causes no outbound call. This
 * Gatehouse's own tenants are issuers too, verified with the keys in its database (no HTTP call:
 * the same keys its JWKS would serve). Every refusal counts as a failed authentication.
 */
@Injectable()
export class FederatedAssertionAuthenticator {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly authenticator: ClientAuthenticator,
    private readonly credentials: FederatedCredentialDirectory,
    private readonly issuers: IssuerKeys,
    private readonly signingKeys: SigningKeyService,
  ) {}

  /** The client and the id of its federated credential that accepted the token, or a counted failure. */
  async authenticate(input: AssertionInput<FederatedAssertion>, snapshot: ClientSnapshot | null): Promise<AssertedClient> {
    let credential: string;
    try {
      credential = await this.verify(input, snapshot);
    } catch (failure) {
      if (!(failure instanceof TokenRequestError)) throw failure;
      const counted = { tenantId: input.tenant.id, clientId: input.clientId, origin: input.origin };
      return this.authenticator.refuse(counted, snapshot, failure);
    }
    assertEnabled(snapshot!, input.basic);
    return { client: snapshot!, credential };
  }

  /** Every check; the matching credential's id. */
  private async verify(input: AssertionInput<FederatedAssertion>, snapshot: ClientSnapshot | null): Promise<string> {
    const { assertion } = input;
    checkExternalLifetime(assertion, Math.floor(Date.now() / 1000));
    if (!snapshot) throw unknownClient(input.clientId, { basic: input.basic });
    const credentials = await this.credentials.of(input.tenant.id, input.clientId, snapshot.client.id);
    const matched = matchCredential(credentials, assertion);
    const keys = candidateKeys(await this.keysOf(assertion), assertion);
    if (keys.length === 0) {
      throw new TokenRequestError(
        TokenRequestErrorCode.FederatedKeyNotFound,
        `The certificate with identifier ${quoted(assertion.kid ?? '(none)')} used to sign the federated credential could not be found in the metadata of identity provider ${quoted(assertion.iss)}. Please validate that your Identity Provider's metadata exposes the key used to sign the incoming token.`,
      );
    }
    if (!keys.some((candidate) => signatureVerifiesWith(assertion, candidate.key))) {
      throw new TokenRequestError(TokenRequestErrorCode.AssertionSignature, 'Client assertion contains an invalid signature.');
    }
    return matched.id;
  }

  /** The issuer's published keys: this Gatehouse's own from its database, any other's through {@link IssuerKeys}. */
  private async keysOf(assertion: FederatedAssertion): Promise<readonly VerificationKey[]> {
    const tenantId = selfIssuedTenant(this.config.publicUrl, assertion.iss);
    if (tenantId) return this.signingKeys.verificationKeys(tenantId);
    try {
      return await this.issuers.keysFor(assertion.iss, assertion.kid);
    } catch (error) {
      if (!(error instanceof IssuerUnavailableError)) throw error;
      throw new TokenRequestError(
        TokenRequestErrorCode.FederatedIssuerUnavailable,
        `Request to External OIDC endpoint failed: ${error.reason}.`,
      );
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import type { Tenant } from '@gatehouse/tenants';
import { AssertionReplayGuard } from './assertion-replay-guard.js';
import {
  ASSERTION_SKEW_SECONDS,
  CLIENT_ASSERTION_TYPE,
  type ParsedAssertion,
  certificateAssertion,
  checkAudience,
  checkTimeRange,
  decodeJws,
  isExternalAssertion,
  namedCertificate,
  requireClaims,
  signatureVerifies,
} from './client-assertion.js';
import { ClientAuthenticator, assertEnabled, unknownClient } from './client-authenticator.js';
import type { ClientSnapshot } from './client-credentials.repository.js';
import { canonicalClientId } from './credential-directory.js';
import { type FederatedAssertion, federatedAssertion } from './federation/external-token.js';
import type { TokenRequestInput } from './token-request.js';
import { TokenRequestError, TokenRequestErrorCode } from './token-request.errors.js';

/** A `client_assertion`: signed with the client's certificate, or a token of another issuer (a federated credential's). */
export type ClientAssertion = ParsedAssertion | FederatedAssertion;

export interface AssertionInput<A extends ClientAssertion = ParsedAssertion> {
  tenant: Tenant;
  clientId: string;
  assertion: A;
  basic: boolean;
  origin?: TokenRequestInput['origin'];
}

/** An assertion's client, with the credential it proved itself with (a certificate's key id, a federated credential's id). */
export interface AssertedClient {
  client: ClientSnapshot;
  credential: string;
}

const error = (code: TokenRequestErrorCode, message: string) => new TokenRequestError(code, message);

/**
 * Client authentication with a certificate (RFC 7523 private_key_jwt, Entra's certificate
 * credentials): a JWT signed with the private key of a certificate registered for the client.
 * Checked: algorithm (PS256, RS256, ES256), the certificate named by `x5t#S256`, `x5t` or `kid`,
 * its signature and validity, `iss` = `sub` = client id, `aud` = this token endpoint, a lifetime
 * of at most 10 minutes, and `jti` used once on every replica. Each refusal uses Entra's AADSTS code
 * and, from the client lookup on, counts as a failed authentication.
 */
@Injectable()
export class ClientAssertionAuthenticator {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly authenticator: ClientAuthenticator,
    private readonly replays: AssertionReplayGuard,
  ) {}

  /**
   * The request's assertion, parsed; undefined when it has none. Shape errors throw at once. An
   * assertion whose `iss` is a URL is another issuer's token (see FederatedAssertionAuthenticator).
   */
  read(input: TokenRequestInput): ClientAssertion | undefined {
    if (input.clientAssertion === undefined && input.clientAssertionType === undefined) return undefined;
    if (input.clientSecret !== undefined) {
      throw error(
        TokenRequestErrorCode.MalformedRequest,
        'The client must use only one authentication method: a client secret and a client assertion were both sent.',
      );
    }
    if (input.clientAssertionType === undefined || input.clientAssertion === undefined) {
      const missing = input.clientAssertion === undefined ? 'client_assertion' : 'client_assertion_type';
      throw error(TokenRequestErrorCode.MissingParameter, `The request body must contain the following parameter: '${missing}'.`);
    }
    if (input.clientAssertionType !== CLIENT_ASSERTION_TYPE) {
      throw error(TokenRequestErrorCode.MalformedRequest, `The client_assertion_type must be '${CLIENT_ASSERTION_TYPE}'.`);
    }
    const decoded = decodeJws(input.clientAssertion);
    return isExternalAssertion(decoded) ? federatedAssertion(decoded) : certificateAssertion(decoded);
  }

  /**
   * The client the assertion speaks for. A certificate's: `iss` = `sub`, equal to `client_id` when
   * that is sent. Another issuer's token names no client: `client_id` must.
   */
  clientIdOf(assertion: ClientAssertion, clientId: string | undefined): string {
    if (assertion.kind === 'federated') {
      if (clientId) return clientId;
      throw error(TokenRequestErrorCode.MissingParameter, "The request body must contain the following parameter: 'client_id'.");
    }
    const { iss, sub } = requireClaims(assertion.claims);
    if (iss !== sub || (clientId !== undefined && canonicalClientId(clientId) !== canonicalClientId(sub))) {
      throw error(
        TokenRequestErrorCode.AssertionClientMismatch,
        "Client assertion application identifier doesn't match 'client_id' parameter.",
      );
    }
    return clientId ?? sub;
  }

  /**
   * Verifies the assertion against the client's certificates and spends its jti; the client and
   * the key id of the certificate that signed, or a counted failure.
   */
  async authenticate(input: AssertionInput, snapshot: ClientSnapshot | null): Promise<AssertedClient> {
    const counted = { tenantId: input.tenant.id, clientId: input.clientId, origin: input.origin };
    let exp: number;
    let keyId: string;
    try {
      ({ exp, keyId } = this.verify(input, snapshot));
    } catch (failure) {
      if (failure instanceof TokenRequestError) return this.authenticator.refuse(counted, snapshot, failure);
      throw failure;
    }
    const client = snapshot!;
    assertEnabled(client, input.basic);
    const jti = String(input.assertion.claims.jti);
    const first = await this.replays.claim(input.tenant.id, client.client.id, jti, (exp + ASSERTION_SKEW_SECONDS) * 1000);
    if (first) return { client, credential: keyId };
    return this.authenticator.refuse(
      counted,
      client,
      error(TokenRequestErrorCode.AssertionReplayed, 'The client assertion was already used. Send a new assertion, with a new jti, with every request.'),
    );
  }

  /** Every check but the jti; returns `exp` and the certificate's key id. */
  private verify(input: AssertionInput, snapshot: ClientSnapshot | null): { exp: number; keyId: string } {
    const { assertion, tenant } = input;
    const { exp } = requireClaims(assertion.claims);
    checkAudience(assertion.claims.aud, this.audiences(tenant));
    const now = Date.now();
    checkTimeRange(assertion.claims, exp, Math.floor(now / 1000));
    if (!snapshot) throw unknownClient(input.clientId, { basic: input.basic });
    const certificate = namedCertificate(assertion.header, snapshot.certificates);
    if (!certificate || !signatureVerifies(assertion, certificate.key)) {
      throw error(
        TokenRequestErrorCode.AssertionSignature,
        certificate
          ? 'Client assertion contains an invalid signature.'
          : 'Client assertion contains an invalid signature. [Reason - The key was not found.]',
      );
    }
    if (now < certificate.notBefore.getTime() || now > certificate.notAfter.getTime()) {
      throw error(
        TokenRequestErrorCode.CertificateExpired,
        `The certificate ${certificate.thumbprint} used to sign the client assertion is not within its validity period (${certificate.notBefore.toISOString()} to ${certificate.notAfter.toISOString()}).`,
      );
    }
    return { exp, keyId: certificate.keyId };
  }

  /** This token endpoint's URLs (v2 and v1, tenant id and slug): the accepted `aud` values. */
  private audiences(tenant: Tenant): string[] {
    const base = this.config.publicUrl;
    return [tenant.id, tenant.slug].flatMap((name) => [`${base}/${name}/oauth2/v2.0/token`, `${base}/${name}/oauth2/token`]);
  }
}

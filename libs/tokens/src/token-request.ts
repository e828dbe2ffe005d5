import type { IncomingMessage } from 'node:http';

/** The parameters of a token request, already read from the body (and Basic header). */
export interface TokenRequestInput {
  tenant: string;
  grantType?: string;
  clientId?: string;
  clientSecret?: string;
  clientAssertionType?: string;
  clientAssertion?: string;
  scope?: string;
  /** The v1 endpoint's `resource` (identifier URI or app id) instead of `scope`. */
  resource?: string;
  /** Sent to the v1 endpoint (`/{tenant}/oauth2/token`): `resource` is required, `scope` ignored. */
  v1?: boolean;
  /** The client authenticated with HTTP Basic. */
  basic: boolean;
  /** The HTTP request, read only on the failure path (its source address). */
  origin?: IncomingMessage;
}

export interface TokenResponse {
  token_type: 'Bearer';
  expires_in: number;
  ext_expires_in: number;
  access_token: string;
  /** The v1 endpoint's answer also carries these (as strings, like every number of Entra's v1 answer). */
  v1?: { notBefore: number; expiresOn: number; resource: string };
}

/** How the client proved itself: `azpacr` / `appidacr` 1 (secret) or 2 (certificate). */
export type ClientAuthMethod = '1' | '2';

import { TokenRequestError, TokenRequestErrorCode } from '../token-request.errors.js';
import { type FederatedAssertion, quoted } from './external-token.js';
import type { FederatedMatcher } from './federated-credential-directory.js';

/** As Entra words them: 700211 and 700212 ask "Please check", 700213 says "Check". */
const CHECK = 'Check your federated identity credential Subject, Audience and Issuer against the presented assertion.';
const PLEASE_CHECK = `Please ${CHECK.charAt(0).toLowerCase()}${CHECK.slice(1)}`;

const refused = (code: TokenRequestErrorCode, message: string) => new TokenRequestError(code, message);

/**
 * The client's federated credential that accepts the token: its issuer exactly, one of its audiences
 * in `aud`, and its subject exactly (or its expression true of the claims). Otherwise Entra's answer
 * for what did not match: no credential of that issuer (AADSTS700211), none of the issuer's names the
 * audience (700212) or accepts the subject (700213), or each part matches some credential but no one
 * credential all three (70021, naming the assertion's issuer, subject and audience).
 */
export function matchCredential(credentials: readonly FederatedMatcher[], assertion: FederatedAssertion): FederatedMatcher {
  const byIssuer = credentials.filter((c) => c.issuer === assertion.iss);
  if (byIssuer.length === 0) {
    throw refused(
      TokenRequestErrorCode.FederatedIssuer,
      `No matching federated identity record found for presented assertion issuer '${quoted(assertion.iss)}'. ${PLEASE_CHECK}`,
    );
  }
  const audienceFits = (c: FederatedMatcher) => c.audiences.some((audience) => assertion.aud.includes(audience));
  const subjectFits = (c: FederatedMatcher) => (c.subject !== null ? c.subject === assertion.sub : c.matcher!(assertion.claims));
  const found = byIssuer.find((c) => audienceFits(c) && subjectFits(c));
  if (found) return found;
  if (!byIssuer.some(audienceFits)) {
    throw refused(
      TokenRequestErrorCode.FederatedAudience,
      `No matching federated identity record found for presented assertion audience '${quoted(assertion.aud)}'. ${PLEASE_CHECK}`,
    );
  }
  if (!byIssuer.some(subjectFits)) {
    throw refused(
      TokenRequestErrorCode.FederatedSubject,
      `No matching federated identity record found for presented assertion subject '${quoted(assertion.sub)}'. ${CHECK}`,
    );
  }
  throw refused(
    TokenRequestErrorCode.FederatedNoMatch,
    `No matching federated identity record found for presented assertion. Assertion Issuer: '${quoted(assertion.iss)}'. ` +
      `Assertion Subject: '${quoted(assertion.sub)}'. Assertion Audience: '${quoted(assertion.aud)}'.`,
  );
}

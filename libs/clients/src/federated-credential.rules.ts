import { TOKEN_EXCHANGE_IDENTIFIER } from '@gatehouse/apis';
import { OutboundError, parseOutboundUrl } from '@gatehouse/outbound';
import {
  ClaimsExpressionError,
  type ClaimsMatchingExpression,
  parseClaimsExpression,
} from './claims-expression.js';
import { FederatedCredentialError, FederatedCredentialErrorCode } from './federated-credential.errors.js';

/** Entra's audience for tokens exchanged at its token endpoint; the default of every federated credential. */
export const TOKEN_EXCHANGE_AUDIENCE = TOKEN_EXCHANGE_IDENTIFIER;
/** At most this many federated credentials per client (Entra's limit). */
export const MAX_FEDERATED_CREDENTIALS = 20;
export const MAX_FEDERATED_TEXT = 600;

/** What a federated credential matches, as given (before the rules). */
export interface FederatedMatchInput {
  issuer: string;
  subject?: string | null;
  claimsMatchingExpression?: ClaimsMatchingExpression | null;
  audiences?: string[];
}

/** What is stored once the rules pass. */
export interface FederatedMatch {
  issuer: string;
  subject: string | null;
  claimsExpression: string | null;
  claimsExpressionVersion: number | null;
  audiences: string[];
}

const invalid = (field: string, message: string) =>
  new FederatedCredentialError(FederatedCredentialErrorCode.Invalid, message, field);

/**
 * The issuer as a token carries it: an https URL without credentials, query or fragment — or this
 * Gatehouse's own issuer of a tenant (`{PUBLIC_URL}/{tenant id}/v2.0`), whatever its scheme.
 */
export function checkIssuer(issuer: string, publicUrl: string): void {
  if (issuer.length > MAX_FEDERATED_TEXT) throw invalid('issuer', `issuer is at most ${MAX_FEDERATED_TEXT} characters`);
  if (issuer.startsWith(`${publicUrl}/`) && !/[?#\s]/.test(issuer)) return;
  let url: URL;
  try {
    url = parseOutboundUrl(issuer);
  } catch (error) {
    if (error instanceof OutboundError) throw invalid('issuer', `issuer: ${error.rule}`);
    throw error;
  }
  if (url.search || url.hash || /\s/.test(issuer)) throw invalid('issuer', 'issuer must carry no query or fragment');
}

/** Exactly one of subject and expression, the expression readable, the audiences sensible. */
export function checkMatch(input: FederatedMatchInput, publicUrl: string): FederatedMatch {
  checkIssuer(input.issuer, publicUrl);
  const subject = input.subject ?? null;
  const expression = input.claimsMatchingExpression ?? null;
  if ((subject === null) === (expression === null)) {
    throw invalid('subject', 'Give exactly one of subject and claimsMatchingExpression.');
  }
  if (subject !== null && (subject.length === 0 || subject.length > MAX_FEDERATED_TEXT)) {
    throw invalid('subject', `subject is 1 to ${MAX_FEDERATED_TEXT} characters`);
  }
  if (expression !== null) {
    try {
      parseClaimsExpression(expression);
    } catch (error) {
      if (!(error instanceof ClaimsExpressionError)) throw error;
      const field = expression.languageVersion === 1 ? 'value' : 'languageVersion';
      throw invalid(`claimsMatchingExpression.${field}`, `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}`);
    }
  }
  const audiences = input.audiences ?? [TOKEN_EXCHANGE_AUDIENCE];
  if (audiences.length === 0 || audiences.some((a) => a.length === 0 || a.length > MAX_FEDERATED_TEXT)) {
    throw invalid('audiences', `audiences holds 1 to 5 values of 1 to ${MAX_FEDERATED_TEXT} characters`);
  }
  return {
    issuer: input.issuer,
    subject,
    claimsExpression: expression?.value ?? null,
    claimsExpressionVersion: expression?.languageVersion ?? null,
    audiences: [...new Set(audiences)],
  };
}

import { CredentialPolicyError, CredentialPolicyErrorCode } from '@gatehouse/clients';
import { type Problem, problem } from './problem.js';

function unmapped(code: never): never {
  throw new Error(`unmapped error code ${String(code)}`);
}

export function credentialPolicyStatus(code: CredentialPolicyErrorCode): number {
  switch (code) {
    case CredentialPolicyErrorCode.Invalid:
    case CredentialPolicyErrorCode.Outside:
      return 400;
    default:
      return unmapped(code);
  }
}

/**
 * The problem for a credential-policy error: the field it is about and, for a credential the
 * policy refuses, the rule (`maxSecretLifetimeDays`, `allowedCredentialKinds`, …); `undefined`
 * for any other error.
 */
export function policyProblem(error: unknown): Problem | undefined {
  if (!(error instanceof CredentialPolicyError)) return undefined;
  const extra: Partial<Problem> = {};
  if (error.field) extra.errors = [{ field: error.field, message: error.message }];
  if (error.rule) extra.rule = error.rule;
  return problem(credentialPolicyStatus(error.code), error.code, error.message, extra);
}

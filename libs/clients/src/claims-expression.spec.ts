import { describe, expect, it } from 'vitest';
import { ClaimsExpressionError, compileClaimsExpression, parseClaimsExpression, wildcard } from './claims-expression.js';

const v1 = (value: string) => ({ value, languageVersion: 1 });

function refusal(value: string, languageVersion = 1): ClaimsExpressionError {
  try {
    parseClaimsExpression({ value, languageVersion });
  } catch (error) {
    if (error instanceof ClaimsExpressionError) return error;
    throw error;
  }
  throw new Error(`${value} was read`);
}

describe("Entra's claims-matching expressions (language version 1)", () => {
  it('reads the documented forms: matches, eq, and', () => {
    expect(parseClaimsExpression(v1("claims['sub'] matches 'repo:org/repo:ref:refs/heads/*'"))).toEqual([
      { claim: 'sub', operator: 'matches', comparand: 'repo:org/repo:ref:refs/heads/*' },
    ]);
    expect(
      parseClaimsExpression(
        v1("claims['sub'] eq 'repo:org/repo:environment:prod' and claims['job_workflow_ref'] matches 'org/wf/.github/workflows/*.yml@refs/heads/main'"),
      ),
    ).toHaveLength(2);
  });

  it('names the part it cannot read', () => {
    expect(refusal("claims['sub'] startswith 'repo:'").message).toBe(
      `could not read " startswith 'repo:'" at character 14: the operator is 'matches' or 'eq', between single spaces`,
    );
    expect(refusal("claims['sub'] eq 'a' or claims['sub'] eq 'b'").part).toBe(" or claims['sub'] eq 'b'");
    expect(refusal("claims['sub'] eq 'a' and ").part).toBe('');
    expect(refusal("claims.sub eq 'a'").position).toBe(1);
    expect(refusal("claims['sub'] eq a").message).toMatch(/comparand is text in single quotes/);
    expect(refusal("claims['sub']  eq 'a'").message).toMatch(/operator/);
    expect(refusal("(claims['sub'] eq 'a')").position).toBe(1);
    expect(refusal("claims['s b'] eq 'a'").message).toMatch(/claim name/);
    expect(refusal("claims['sub'] eq 'a'", 2).message).toMatch(/languageVersion must be 1/);
    expect(refusal('').message).toMatch(/1 to 1000 characters/);
  });

  it('matches claims as Entra does: exact, case-sensitive, wildcards * and ?', () => {
    const branch = compileClaimsExpression(v1("claims['sub'] matches 'repo:org/repo:ref:refs/heads/*'"));
    expect(branch({ sub: 'repo:org/repo:ref:refs/heads/main' })).toBe(true);
    expect(branch({ sub: 'repo:org/repo:ref:refs/heads/feature/x' })).toBe(true);
    expect(branch({ sub: 'repo:org/repo:ref:refs/tags/v1' })).toBe(false);
    expect(branch({ sub: 'repo:Org/repo:ref:refs/heads/main' })).toBe(false);
    expect(branch({})).toBe(false);
    expect(branch({ sub: 42 })).toBe(false);
    const both = compileClaimsExpression(
      v1("claims['sub'] eq 'repo:org/repo:environment:prod' and claims['job_workflow_ref'] matches 'org/wf/*@refs/heads/?ain'"),
    );
    expect(both({ sub: 'repo:org/repo:environment:prod', job_workflow_ref: 'org/wf/deploy.yml@refs/heads/main' })).toBe(true);
    expect(both({ sub: 'repo:org/repo:environment:prod', job_workflow_ref: 'org/wf/deploy.yml@refs/heads/mainline' })).toBe(false);
    expect(both({ sub: 'repo:org/repo:environment:dev', job_workflow_ref: 'org/wf/deploy.yml@refs/heads/main' })).toBe(false);
    expect(compileClaimsExpression(v1("claims['constructor'] matches '*'"))({})).toBe(false);
  });

  it('matches wildcards without exponential backtracking', () => {
    expect(wildcard('*')('')).toBe(true);
    expect(wildcard('a*b?c')('aXXbYc')).toBe(true);
    expect(wildcard('a*b?c')('aXXbc')).toBe(false);
    // A backtracking regular expression would not come back from this one.
    expect(wildcard(`${'*a'.repeat(20)}b`)('a'.repeat(2000))).toBe(false);
  });
});

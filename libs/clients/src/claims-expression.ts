/**
 * Entra's flexible federated identity credential language, version 1: clauses
 * `claims['<name>'] <operator> '<comparand>'` joined by ` and `, parts separated by single spaces.
 * Operators are the two Entra documents: `matches` (wildcards `*`, any run of characters, and `?`,
 * one character) and `eq` (the exact text). Nothing else is read: no `or`, no parentheses, no
 * escapes; a claim that is absent or not a string matches nothing.
 */

/** The expression as Graph carries it: `{ value, languageVersion }`. */
export interface ClaimsMatchingExpression {
  value: string;
  languageVersion: number;
}

export type ClaimsMatcher = (claims: Readonly<Record<string, unknown>>) => boolean;

export const CLAIMS_EXPRESSION_LANGUAGE_VERSION = 1;
export const MAX_CLAIMS_EXPRESSION_LENGTH = 1000;
const MAX_CLAUSES = 10;
/** Claim values longer than this never match (a bound on the wildcard matcher's work). */
const MAX_CLAIM_VALUE_LENGTH = 2048;

const OPERATORS = ['matches', 'eq'] as const;
type Operator = (typeof OPERATORS)[number];

interface Clause {
  claim: string;
  operator: Operator;
  comparand: string;
}

/** Where and why an expression could not be read; `part` is the text from that point on, shortened. */
export class ClaimsExpressionError extends Error {
  constructor(
    readonly part: string,
    readonly position: number,
    reason: string,
  ) {
    super(`could not read ${JSON.stringify(part)} at character ${position}: ${reason}`);
    this.name = 'ClaimsExpressionError';
  }
}

const CLAIM = /claims\['([^'\]]*)'\]/y;
const WORD = / ([^ ]*) /y;
const COMPARAND = /'([^']*)'/y;
const AND = / and /y;
const CLAIM_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

function refuse(value: string, at: number, reason: string): never {
  const rest = value.slice(at);
  throw new ClaimsExpressionError(rest.length > 60 ? `${rest.slice(0, 57)}…` : rest, at + 1, reason);
}

/** One clause at `at`; returns it and where it ends. */
function readClause(value: string, at: number): { clause: Clause; end: number } {
  CLAIM.lastIndex = at;
  const claim = CLAIM.exec(value);
  if (!claim) refuse(value, at, "a clause starts with claims['<claim name>']");
  if (!CLAIM_NAME.test(claim[1]!)) refuse(value, at, 'a claim name is 1 to 64 of A-Z a-z 0-9 _ . : -');
  WORD.lastIndex = CLAIM.lastIndex;
  const word = WORD.exec(value);
  if (!word || !(OPERATORS as readonly string[]).includes(word[1]!)) {
    refuse(value, CLAIM.lastIndex, "the operator is 'matches' or 'eq', between single spaces");
  }
  COMPARAND.lastIndex = WORD.lastIndex;
  const comparand = COMPARAND.exec(value);
  if (!comparand) refuse(value, WORD.lastIndex, 'the comparand is text in single quotes (without a quote inside)');
  return {
    clause: { claim: claim[1]!, operator: word[1] as Operator, comparand: comparand[1]! },
    end: COMPARAND.lastIndex,
  };
}

/** The clauses of an expression, or a {@link ClaimsExpressionError} naming the part it could not read. */
export function parseClaimsExpression(expression: ClaimsMatchingExpression): Clause[] {
  if (expression.languageVersion !== CLAIMS_EXPRESSION_LANGUAGE_VERSION) {
    throw new ClaimsExpressionError(String(expression.languageVersion), 0, 'languageVersion must be 1');
  }
  const { value } = expression;
  if (value.length === 0 || value.length > MAX_CLAIMS_EXPRESSION_LENGTH) {
    refuse(value, 0, `an expression is 1 to ${MAX_CLAIMS_EXPRESSION_LENGTH} characters`);
  }
  const clauses: Clause[] = [];
  let at = 0;
  for (;;) {
    const { clause, end } = readClause(value, at);
    clauses.push(clause);
    if (end === value.length) return clauses;
    AND.lastIndex = end;
    if (!AND.exec(value)) refuse(value, end, "clauses are joined by ' and ' (the only other word of the language)");
    if (clauses.length >= MAX_CLAUSES) refuse(value, end, `an expression has at most ${MAX_CLAUSES} clauses`);
    at = AND.lastIndex;
  }
}

/** A matcher of an expression already checked by {@link parseClaimsExpression}. */
export function compileClaimsExpression(expression: ClaimsMatchingExpression): ClaimsMatcher {
  const clauses = parseClaimsExpression(expression).map((clause) => ({
    claim: clause.claim,
    test: clause.operator === 'eq' ? equals(clause.comparand) : wildcard(clause.comparand),
  }));
  return (claims) =>
    clauses.every(({ claim, test }) => {
      const value = Object.hasOwn(claims, claim) ? claims[claim] : undefined;
      return typeof value === 'string' && value.length <= MAX_CLAIM_VALUE_LENGTH && test(value);
    });
}

const equals = (comparand: string) => (value: string) => value === comparand;

/**
 * `*` matches any run of characters (none included), `?` one character; everything else itself.
 * The iterative matcher backtracks only to the last `*`: at most pattern × text steps, never the
 * exponential time a regular expression can take on such patterns.
 */
export function wildcard(pattern: string): (value: string) => boolean {
  const p = Array.from(pattern);
  return (value) => {
    const t = Array.from(value);
    let i = 0;
    let j = 0;
    let star = -1;
    let resume = 0;
    while (j < t.length) {
      if (i < p.length && (p[i] === '?' || (p[i] !== '*' && p[i] === t[j]))) {
        i++;
        j++;
      } else if (i < p.length && p[i] === '*') {
        star = i++;
        resume = j;
      } else if (star >= 0) {
        i = star + 1;
        j = ++resume;
      } else {
        return false;
      }
    }
    while (i < p.length && p[i] === '*') i++;
    return i === p.length;
  };
}

import { type AddFederatedCredentialInput, TOKEN_EXCHANGE_AUDIENCE } from '@gatehouse/clients';
import type { FieldErrors } from '@gatehouse/views';

/** The forms of the "Add federated credential" page: a platform's own words, turned into Entra's fields. */
export const SCENARIOS = ['github', 'kubernetes', 'other'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const GITHUB_ISSUER = 'https://token.actions.githubusercontent.com';
export const GITHUB_ENTITIES = ['branch', 'environment', 'tag', 'pull_request'] as const;
export type GitHubEntity = (typeof GITHUB_ENTITIES)[number];

/** What the person typed, kept as typed when the form comes back. */
export interface FederatedForm {
  scenario: Scenario;
  name?: string;
  description?: string;
  audiences?: string;
  organisation?: string;
  repository?: string;
  entity?: string;
  value?: string;
  issuer?: string;
  namespace?: string;
  serviceAccount?: string;
  subject?: string;
  expression?: string;
}

const GITHUB_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const GITHUB_REPOSITORY = /^[A-Za-z0-9._-]{1,100}$/;
const GITHUB_VALUE = /^[^\s'\p{Cc}]{1,200}$/u;
const K8S_NAMESPACE = /^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?$/;
const K8S_ACCOUNT = /^[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?$/;
const WILDCARD = /[*?]/;

export function scenarioOf(value: unknown): Scenario {
  return (SCENARIOS as readonly unknown[]).includes(value) ? (value as Scenario) : 'github';
}

/** What GitHub writes into `sub` for a job of this repository and entity (its documented formats). */
export function githubSubject(organisation: string, repository: string, entity: GitHubEntity, value: string): string {
  const repo = `repo:${organisation}/${repository}`;
  switch (entity) {
    case 'branch':
      return `${repo}:ref:refs/heads/${value}`;
    case 'tag':
      return `${repo}:ref:refs/tags/${value}`;
    case 'environment':
      return `${repo}:environment:${value}`;
    case 'pull_request':
      return `${repo}:pull_request`;
  }
}

/** What Kubernetes writes into `sub` for a projected service account token. */
export function kubernetesSubject(namespace: string, serviceAccount: string): string {
  return `system:serviceaccount:${namespace}:${serviceAccount}`;
}

/**
 * The subject the scenario's fields make (an exact `sub`, or for a branch, tag or environment with
 * `*` or `?` Entra's `claims['sub'] matches '…'`), or the fields that are wrong.
 */
export function matcherOf(form: FederatedForm): { issuer: string; subject?: string; expression?: string; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const need = (name: keyof FederatedForm, rule: RegExp, message: string) => {
    if (!rule.test(form[name] ?? '')) errors[name] = message;
  };
  if (form.scenario === 'github') {
    need('organisation', GITHUB_OWNER, 'Enter the organisation or user that owns the repository, e.g. contoso.');
    need('repository', GITHUB_REPOSITORY, 'Enter the repository name, e.g. orders.');
    const entity = (GITHUB_ENTITIES as readonly string[]).includes(form.entity ?? '') ? (form.entity as GitHubEntity) : 'branch';
    if (entity !== 'pull_request') need('value', GITHUB_VALUE, 'Enter the name (no spaces or quotes), e.g. main.');
    if (Object.keys(errors).length) return { issuer: GITHUB_ISSUER, errors };
    const subject = githubSubject(form.organisation!, form.repository!, entity, form.value ?? '');
    if (entity !== 'pull_request' && WILDCARD.test(form.value ?? '')) {
      return { issuer: GITHUB_ISSUER, expression: `claims['sub'] matches '${subject}'`, errors };
    }
    return { issuer: GITHUB_ISSUER, subject, errors };
  }
  const issuer = (form.issuer ?? '').trim();
  if (!issuer) errors.issuer = 'Enter the issuer URL, exactly as its tokens carry it in iss.';
  if (form.scenario === 'kubernetes') {
    need('namespace', K8S_NAMESPACE, 'Enter the namespace of the workload, e.g. orders.');
    need('serviceAccount', K8S_ACCOUNT, 'Enter the service account name, e.g. orders-sync.');
    return { issuer, subject: kubernetesSubject(form.namespace ?? '', form.serviceAccount ?? ''), errors };
  }
  const subject = (form.subject ?? '').trim();
  const expression = (form.expression ?? '').trim();
  if (Boolean(subject) === Boolean(expression)) errors.subject = 'Fill in exactly one: the subject, or a claims-matching expression.';
  return { issuer, subject: subject || undefined, expression: expression || undefined, errors };
}

/** The add use case's input from the form, or the form's errors. */
export function credentialFromForm(form: FederatedForm): { input?: AddFederatedCredentialInput; errors: FieldErrors } {
  const { issuer, subject, expression, errors } = matcherOf(form);
  const name = (form.name ?? '').trim();
  if (!name) errors.name = 'Enter a name, e.g. github-production.';
  const audiences = (form.audiences ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (Object.keys(errors).length) return { errors };
  return {
    errors,
    input: {
      name,
      issuer,
      subject,
      claimsMatchingExpression: expression === undefined ? undefined : { value: expression, languageVersion: 1 },
      audiences: audiences.length ? audiences : [TOKEN_EXCHANGE_AUDIENCE],
      description: form.description?.trim() || undefined,
    },
  };
}

/** Which form field a refusal of the use case belongs to, in this scenario. */
export function formFieldOf(scenario: Scenario, field: string | undefined): string {
  if (field === 'issuer' || field === 'name' || field === 'audiences') return field;
  if (scenario === 'github') return 'value';
  if (scenario === 'kubernetes') return 'serviceAccount';
  return field?.startsWith('claimsMatchingExpression') ? 'expression' : 'subject';
}

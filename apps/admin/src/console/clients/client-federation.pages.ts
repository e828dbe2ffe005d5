import type { ClientView, FederatedCredentialView } from '@gatehouse/clients';
import {
  type FieldErrors,
  type SafeHtml,
  formError,
  hiddenInputs,
  html,
  inputField,
  postForm,
  selectField,
  table,
  textareaField,
  timeTag,
} from '@gatehouse/views';
import type { ClientAbilities } from './client-sections.pages.js';
import { enableAgainLink, lastUseAndState } from './credential-enabling.pages.js';
import { type FederatedForm, GITHUB_ISSUER, type Scenario } from './federation-scenarios.js';

const matcher = (c: FederatedCredentialView): SafeHtml =>
  c.subject !== null
    ? html`<code class="wrap">${c.subject}</code>`
    : html`<span class="hint">expression</span> <code class="wrap">${c.claimsMatchingExpression!.value}</code>`;

/** The client page's panel: which external tokens may stand for this client. */
export function federationSection(input: {
  base: string;
  client: ClientView;
  credentials: readonly FederatedCredentialView[];
  can: ClientAbilities;
}): SafeHtml {
  const path = `${input.base}/clients/${input.client.clientId}`;
  const add =
    input.can.manageCredentials && input.client.state !== 'disabled'
      ? html`<p class="actions"><a class="button secondary" href="${path}/federated-credentials/new">Add federated credential</a></p>`
      : '';
  return html`<section class="panel" aria-labelledby="federation-heading">
    <h2 id="federation-heading">Federated credentials</h2>
    <p class="hint">
      Tokens that a GitHub Actions job, a Kubernetes workload or another tenant's client already has, accepted instead of
      a secret: nothing secret is stored or handed over.
    </p>
    ${add}
    ${table({
      caption: 'Federated credentials',
      columns: [
        { header: 'Name', cell: (c: FederatedCredentialView) => c.name },
        { header: 'Issuer', cell: (c) => html`<code class="wrap">${c.issuer}</code>` },
        { header: 'Matches', cell: (c) => matcher(c) },
        { header: 'Audiences', cell: (c) => html`<code class="wrap">${c.audiences.join(', ')}</code>` },
        { header: 'Added', cell: (c) => timeTag(new Date(c.createdAt)) },
        { header: 'Last used', cell: (c) => lastUseAndState(c) },
        {
          header: 'Action',
          cell: (c) =>
            input.can.manageCredentials
              ? html`${c.disabledAt ? html`${enableAgainLink(path, 'federated-credentials', c.id, `federated credential ${c.name}`)} ` : ''}<a
                    href="${path}/federated-credentials/${c.id}/remove"
                    >Remove<span class="visually-hidden"> federated credential ${c.name}</span></a
                  >`
              : '—',
        },
      ],
      rows: input.credentials,
      empty: 'No federated credentials. Add one to let a workload sign in with its own platform’s token.',
    })}
  </section>`;
}

const SCENARIO_LABELS: Record<Scenario, string> = {
  github: 'GitHub Actions',
  kubernetes: 'Kubernetes',
  other: 'Any other issuer',
};

function scenarioNav(path: string, current: Scenario): SafeHtml {
  return html`<nav class="scenarios" aria-label="Where the workload runs">
    <ul>
      ${(Object.keys(SCENARIO_LABELS) as Scenario[]).map(
        (s) =>
          html`<li>
            <a href="${path}/federated-credentials/new?scenario=${s}" ${s === current ? html`aria-current="page"` : ''}
              >${SCENARIO_LABELS[s]}</a
            >
          </li>`,
      )}
    </ul>
  </nav>`;
}

function githubFields(values: FederatedForm, errors: FieldErrors): SafeHtml {
  return html`<p>Issuer: <code class="wrap">${GITHUB_ISSUER}</code> (GitHub's, for every repository).</p>
    ${inputField({ name: 'organisation', label: 'Organisation', hint: 'The owner of the repository, as in github.com/<organisation>/<repository>.', value: values.organisation, error: errors.organisation, verbatim: true, maxlength: 39 })}
    ${inputField({ name: 'repository', label: 'Repository', value: values.repository, error: errors.repository, verbatim: true, maxlength: 100 })}
    ${selectField({
      name: 'entity',
      label: 'The jobs to trust',
      options: [
        { value: 'branch', label: 'Jobs on a branch' },
        { value: 'environment', label: 'Jobs in an environment' },
        { value: 'tag', label: 'Jobs for a tag' },
        { value: 'pull_request', label: 'Jobs of pull requests' },
      ],
      value: values.entity ?? 'branch',
    })}
    ${inputField({ name: 'value', label: 'Branch, environment or tag', hint: 'E.g. main, production or v*. With * (any run) or ? (one character) it matches by expression. Leave empty for pull requests.', value: values.value, error: errors.value, verbatim: true, maxlength: 200 })}`;
}

function kubernetesFields(values: FederatedForm, errors: FieldErrors): SafeHtml {
  return html`${inputField({ name: 'issuer', label: 'Cluster issuer URL', hint: 'The cluster’s service account issuer (kubectl get --raw /.well-known/openid-configuration shows it), e.g. https://oidc.example.com/cluster-1.', value: values.issuer, error: errors.issuer, verbatim: true, maxlength: 600 })}
    ${inputField({ name: 'namespace', label: 'Namespace', value: values.namespace, error: errors.namespace, verbatim: true, maxlength: 63 })}
    ${inputField({ name: 'serviceAccount', label: 'Service account', value: values.serviceAccount, error: errors.serviceAccount, verbatim: true, maxlength: 253 })}`;
}

function otherFields(values: FederatedForm, errors: FieldErrors): SafeHtml {
  return html`${inputField({ name: 'issuer', label: 'Issuer URL', hint: 'Exactly as its tokens carry it in iss (https). Another Gatehouse tenant: https://<this server>/<tenant id>/v2.0.', value: values.issuer, error: errors.issuer, verbatim: true, maxlength: 600 })}
    ${inputField({ name: 'subject', label: 'Subject', hint: 'The exact sub of the tokens. Or leave it empty and write an expression below.', value: values.subject, error: errors.subject, verbatim: true, maxlength: 600 })}
    ${textareaField({ name: 'expression', label: 'Claims-matching expression (instead of a subject)', hint: "E.g. claims['sub'] matches 'repo:contoso/*:ref:refs/heads/main' — operators matches and eq, clauses joined by and.", value: values.expression, error: errors.expression, rows: 2, className: 'mono', verbatim: true, maxlength: 1000 })}`;
}

/** The scenario's form: its own fields, then the name, audiences and description every credential has. */
export function federatedCredentialForm(input: {
  path: string;
  csrf: string;
  values: FederatedForm;
  errors: FieldErrors;
  /** What the fields make, once previewed or sent back. */
  made?: { subject?: string; expression?: string };
  error?: string;
}): SafeHtml {
  const { values, errors, path } = input;
  const fields = { github: githubFields, kubernetes: kubernetesFields, other: otherFields }[values.scenario];
  const made = input.made?.subject ?? input.made?.expression;
  return html`${scenarioNav(path, values.scenario)} ${formError(input.error)}
    ${made
      ? html`<p class="notice" role="status">
          ${input.made?.subject ? 'The subject these fields make:' : 'The expression these fields make:'}
          <code class="wrap" data-copy="subject">${made}</code>
        </p>`
      : ''}
    ${postForm({
      action: `${path}/federated-credentials`,
      csrf: input.csrf,
      submit: 'Add the federated credential',
      aside: html`<button type="submit" class="secondary" formaction="${path}/federated-credentials/preview">Show the subject</button>
        <a href="${path}">Cancel</a>`,
      body: html`${hiddenInputs({ scenario: values.scenario })} ${fields(values, errors)}
      ${inputField({ name: 'name', label: 'Name', hint: 'Unique for this client, cannot be changed later: letters, digits, - _ . (e.g. github-production).', value: values.name, error: errors.name, verbatim: true, maxlength: 120 })}
      ${inputField({ name: 'audiences', label: 'Audience', hint: 'api://AzureADTokenExchange if empty (what Azure client libraries ask their platform for). Several: separate with commas.', value: values.audiences, error: errors.audiences, verbatim: true, maxlength: 600 })}
      ${inputField({ name: 'description', label: 'Description (optional)', value: values.description, error: errors.description, maxlength: 500 })}`,
    })}`;
}

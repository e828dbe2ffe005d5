import { Inject, Injectable } from '@nestjs/common';
import { type ApiView, ApiService } from '@gatehouse/apis';
import { type Permission, UserService } from '@gatehouse/accounts';
import { type AuditEventView, AuditService } from '@gatehouse/audit';
import {
  type CertificateView,
  ClientCertificateService,
  ClientService,
  type ClientView,
  type CredentialPolicy,
  CredentialPolicyService,
  type FederatedCredentialView,
  FederatedCredentialService,
  type SecretView,
  isOperatorClient,
  mayManageClientOf,
  outsidePolicy,
} from '@gatehouse/clients';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { HandoverService } from '@gatehouse/handovers';
import { AccessRequestService } from '@gatehouse/requests';
import { type Crumb, type FieldErrors, type SafeHtml, html } from '@gatehouse/views';
import { OrganisationService } from '@gatehouse/organisations';
import { organisationLink } from '../organisations/organisations.pages.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleView } from '../frame/console-responder.js';
import { clientSummary } from './clients.pages.js';
import { federationSection } from './client-federation.pages.js';
import { type ClientFlag, type LimitsForm, limitsSection, policyFlagsSection } from './client-limits.pages.js';
import {
  type ClientAbilities,
  credentialsSection,
  handoversSection,
  historySection,
  scopesSection,
  stateSection,
} from './client-sections.pages.js';

const HISTORY_ROWS = 20;

/** What the client page shows besides the client: read with the same services as the REST reads. */
export interface ClientPageState {
  /** Scopes as posted, when a change came back with an error. */
  scopes?: readonly string[];
  scopesError?: string;
  /** The limits form as posted, when it came back with errors. */
  limits?: { values: LimitsForm; errors: FieldErrors };
  status?: number;
}

/**
 * The client page (Clients.Read, like `GET /clients/{clientId}`): summary, scopes, credentials,
 * handovers, history. Buttons show only where the person may act — the actions check again.
 */
@Injectable()
export class ClientDetail {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clients: ClientService,
    private readonly certificates: ClientCertificateService,
    private readonly federated: FederatedCredentialService,
    private readonly handovers: HandoverService,
    private readonly apis: ApiService,
    private readonly audit: AuditService,
    private readonly users: UserService,
    private readonly requests: AccessRequestService,
    private readonly organisations: OrganisationService,
    private readonly policy: CredentialPolicyService,
  ) {}

  /** The breadcrumb of a page under a client (Clients › name › last), its name and path. */
  async crumbs(
    who: ConsolePrincipal,
    clientId: string,
    last: string,
  ): Promise<{ crumbs: Crumb[]; name: string; path: string }> {
    const client = await this.clients.get(who.tenantId, clientId);
    const path = `${who.base}/clients/${clientId}`;
    const crumbs = [
      { label: 'Clients', href: `${who.base}/clients` },
      { label: client.displayName, href: path },
      { label: last },
    ];
    return { crumbs, name: client.displayName, path };
  }

  /** The token endpoint of the console's tenant, as clients call it. */
  tokenEndpoint(who: ConsolePrincipal): string {
    return `${this.config.publicUrl}/${who.tenantId}/oauth2/v2.0/token`;
  }

  /** Every API the person may assign scopes of (never the built-in admin API), oldest first. */
  async assignableApis(tenantId: string): Promise<ApiView[]> {
    const page = await this.apis.list(tenantId, { limit: 200 });
    return page.items.filter((api) => !api.builtIn);
  }

  /** The client's owner's name when it is an operator client, and what the person may do on it. */
  async abilities(
    who: ConsolePrincipal,
    client: ClientView,
  ): Promise<{ ownerName: string | null; can: ClientAbilities }> {
    const owner = client.ownerUserId ? await this.users.findById(who.tenantId, client.ownerUserId) : null;
    const manageable = mayManageClientOf(who, owner);
    const held = (permission: Permission) => who.permissions.includes(permission);
    return {
      ownerName: owner && isOperatorClient(owner) ? owner.displayName : null,
      can: {
        assignScopes: held('Scopes.Assign'),
        setLimits: held('Scopes.Assign') && manageable,
        manageCredentials: held('Secrets.Manage') && manageable,
        manageState: held('Clients.Manage') && manageable,
        readHistory: held('Audit.Read'),
      },
    };
  }

  async show(who: ConsolePrincipal, clientId: string, state: ClientPageState = {}): Promise<ConsoleView> {
    const client = await this.clients.get(who.tenantId, clientId);
    const [secrets, certificates, federated, handovers, apis, { ownerName, can }, policy] = await Promise.all([
      this.clients.listSecrets(who.tenantId, clientId),
      this.certificates.list(who.tenantId, clientId),
      this.federated.list(who.tenantId, clientId),
      this.handovers.list(who.tenantId, clientId),
      this.assignableApis(who.tenantId),
      this.abilities(who, client),
      this.policy.policyOf(who.tenantId),
    ]);
    const flags = flagsOf(policy, secrets, certificates, federated);
    const history = can.readHistory ? await this.history(who.tenantId, clientId) : null;
    const origin = who.permissions.includes('Requests.Read') ? await this.requests.findByClient(who.tenantId, client.objectId) : null;
    const base = who.base;
    const organisationName = client.organisationId ? (await this.organisations.names(who.tenantId, [client.organisationId])).get(client.organisationId) : undefined;
    const organisation = organisationLink(base, organisationName ? { id: client.organisationId!, name: organisationName } : null, who.permissions.includes('Users.Read'));
    const body: SafeHtml = html`${clientSummary({
      client,
      tenantName: who.tenant.displayName,
      tenantId: who.tenantId,
      tokenEndpoint: this.tokenEndpoint(who),
      ownerName,
      canAssign: can.assignScopes,
      organisation,
      origin: origin && { href: `${base}/requests/${origin.id}`, requester: origin.requesterName, organisation: origin.organisation },
    })}
    ${scopesSection({ base, csrf: who.csrfToken, client, apis, granted: state.scopes ?? client.scopes, can, error: state.scopesError })}
    ${policyFlagsSection({ flags, policyPath: who.permissions.includes('Tenant.Manage') ? `${base}/credential-policy` : null })}
    ${credentialsSection({ base, client, secrets, certificates, can })}
    ${federationSection({ base, client, credentials: federated, can })}
    ${limitsSection({ action: `${base}/clients/${clientId}/limits`, csrf: who.csrfToken, client, canSet: can.setLimits, values: state.limits?.values, errors: state.limits?.errors })}
    ${handoversSection({ base, clientId, csrf: who.csrfToken, handovers, can })}
    ${historySection({ events: history?.events ?? null, names: history?.names ?? new Map(), auditLink: `${base}/audit?target=${clientId}` })}
    ${stateSection({ base, csrf: who.csrfToken, client, can })}`;
    return {
      title: client.displayName,
      breadcrumbs: [{ label: 'Clients', href: `${base}/clients` }, { label: client.displayName }],
      body,
      status: state.status,
    };
  }

  /** The client's latest audit events (the REST `GET /audit-events?target=` read, Audit.Read) with the people's names. */
  private async history(
    tenantId: string,
    clientId: string,
  ): Promise<{ events: AuditEventView[]; names: Map<string, string> }> {
    const { items } = await this.audit.list(tenantId, { target: clientId, limit: HISTORY_ROWS });
    const ids = [...new Set(items.map((e) => e.actor.userId).filter((id): id is string => id !== null))];
    const people = await Promise.all(ids.map((id) => this.users.findById(tenantId, id)));
    return { events: items, names: new Map(people.filter((p) => p !== null).map((p) => [p.id, p.displayName])) };
  }
}

/** The client's live credentials that the policy flags (they keep working). */
function flagsOf(
  policy: CredentialPolicy,
  secrets: readonly SecretView[],
  certificates: readonly CertificateView[],
  federated: readonly FederatedCredentialView[],
): ClientFlag[] {
  const now = Date.now();
  const flags: ClientFlag[] = [];
  for (const s of secrets) {
    if (s.revokedAt || Date.parse(s.expiresAt) <= now) continue;
    const breach = outsidePolicy({ kind: 'secret', createdAt: new Date(s.createdAt), expiresAt: new Date(s.expiresAt) }, policy);
    if (breach) flags.push({ what: html`Secret ${s.displayName ? `“${s.displayName}” ` : ''}<code>${s.hint}…</code>`, breach });
  }
  for (const c of certificates) {
    if (Date.parse(c.notAfter) <= now) continue;
    const breach = outsidePolicy({ kind: 'certificate', notBefore: new Date(c.notBefore), notAfter: new Date(c.notAfter) }, policy);
    if (breach) flags.push({ what: html`Certificate <code class="wrap">${c.thumbprint}</code>`, breach });
  }
  for (const f of federated) {
    const breach = outsidePolicy({ kind: 'federated' }, policy);
    if (breach) flags.push({ what: html`Federated credential <code>${f.name}</code>`, breach });
  }
  return flags;
}

import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { expect } from 'vitest';
import { DocService } from '@gatehouse/docs';
import type { AdminFixtures, OperatorFixture, TenantFixture } from './admin-fixtures.js';
import type { PathPools } from './openapi-requests.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A call of the admin API with a bearer token: the status and the parsed body. */
export type AdminCall = (token: string, method: string, path: string, body?: unknown) => Promise<{ status: number; body: Json }>;

/** The objects of one tenant the fuzzer aims at, and the strings that identify them. */
export interface World {
  users: string[];
  clients: string[];
  keyIds: string[];
  apis: string[];
  scopes: string[];
  slugs: string[];
  invitations: string[];
  requests: string[];
  handovers: string[];
  federated: string[];
  emails: string[];
  /** Real cursors of this tenant's lists (a position, nothing more). */
  cursors: string[];
  /** Everything that names this tenant's data: ids, addresses, names. */
  markers: string[];
}

/** A tenant with one of everything, made through the admin API and named with `tag` so that its strings are recognisable. */
export async function buildWorld(app: INestApplication, fixtures: AdminFixtures, call: AdminCall, tenant: TenantFixture, admin: OperatorFixture, tag: string): Promise<World> {
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await call(admin.token, method, path, body);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    return answer.body;
  };
  const contact = await fixtures.operator(tenant, ['ContactPerson'], `${tag}-contact`);
  const partner = await ok('post', '/users', { username: `${tag}-partner`, email: `${tag}-partner@${tag}.example`, displayName: `${tag} Partner` });
  const api = await ok('post', '/apis', { identifier: `api://${tag}-orders`, displayName: `${tag} Orders` });
  await ok('post', `/apis/${api.id}/scopes`, { value: 'Orders.Read', description: 'Read' });
  const client = await ok('post', '/clients', { displayName: `${tag} sync`, ownerUserId: partner.id, contactEmail: `${tag}-ops@${tag}.example` });
  await ok('put', `/clients/${client.clientId}/scopes`, { scopes: [`api://${tag}-orders/Orders.Read`] });
  const secret = await ok('post', `/clients/${client.clientId}/secrets`, {});
  const slug = `${tag}-guide`;
  await ok('post', '/doc-sections', { slug, title: `${tag} guide`, body: `# ${tag}` });
  const invitation = await ok('post', '/invitations', { userId: partner.id, sections: [slug] });
  const request = await ok('post', '/access-requests', {
    requesterName: `${tag} Requester`,
    requesterEmail: `${tag}-requester@${tag}.example`,
    organisation: `${tag} Ltd`,
    account: { documentation: `${tag} guide`, reason: 'Integration work' },
  });
  const handover = await ok('post', `/clients/${client.clientId}/handovers`, {});
  const federated = await ok('post', `/clients/${client.clientId}/federated-credentials`, { name: `${tag}-ci`, issuer: `https://${tag}.example`, subject: `${tag}-job` });
  const emails = (await ok('get', '/emails')).items.map((e: Json) => e.id as string);
  await app.get(DataSource).transaction((em) => app.get(DocService).grant(em, tenant.tenantId, partner.id, [slug]));
  const cursors: string[] = [];
  for (const list of ['/users', '/clients', '/apis', '/doc-sections', '/invitations', '/emails', '/audit-events']) {
    const page = await ok('get', `${list}?limit=1`);
    if (page.nextCursor) cursors.push(page.nextCursor);
  }
  const users = [partner.id, contact.user.id];
  const clients = [client.clientId, contact.clientId];
  return {
    users,
    clients,
    keyIds: [secret.keyId],
    apis: [api.id, tenant.adminApi.id],
    scopes: [`api://${tag}-orders/Orders.Read`, `api://${tag}-orders/.default`, `${api.appId}/Orders.Read`],
    slugs: [slug],
    invitations: [invitation.id],
    requests: [request.id],
    handovers: [handover.id],
    federated: [federated.id],
    emails,
    cursors,
    markers: [...users, ...clients, secret.keyId, api.id, api.appId, invitation.id, request.id, handover.id, federated.id, ...emails, `${tag}-partner@${tag}.example`, `${tag}-requester@${tag}.example`, `${tag}-ops@${tag}.example`, `api://${tag}-orders`, slug],
  };
}

/** Values for a field or path parameter: mostly tenant `a`'s, sometimes `b`'s, sometimes junk; a few fields drawn so that some requests succeed. */
export function worldPools(a: World, b: World, certificatePem: string, webhookUrl: string): PathPools {
  return (field, path) => {
    const either = (own: string[], foreign: string[]) =>
      fc.oneof({ arbitrary: fc.constantFrom(...own), weight: 6 }, { arbitrary: fc.constantFrom(...foreign), weight: 2 }, { arbitrary: fc.uuid(), weight: 1 });
    if (field === 'cursor') return fc.constantFrom(...a.cursors, ...b.cursors);
    if (field === 'clientId') return either(a.clients, b.clients);
    if (field === 'keyId') return either(a.keyIds, b.keyIds);
    if (field === 'userId' || field === 'ownerUserId') return either(a.users, b.users);
    if (field === 'sections' || (field === 'slug' && path.includes('{slug}'))) return either(a.slugs, b.slugs);
    if (field === 'scopes') return either(a.scopes, b.scopes);
    if (field === 'id' && path.startsWith('/admin/v1/users')) return either(a.users, b.users);
    if (field === 'id' && path.startsWith('/admin/v1/apis')) return either(a.apis, b.apis);
    if (field === 'id' && path.startsWith('/admin/v1/invitations')) return either(a.invitations, b.invitations);
    if (field === 'id' && path.startsWith('/admin/v1/emails')) return either(a.emails, b.emails);
    if (field === 'id' && path.startsWith('/admin/v1/access-requests')) return either(a.requests, b.requests);
    if (field === 'id' && path.startsWith('/admin/v1/handovers')) return either(a.handovers, b.handovers);
    if (field === 'id' && path.includes('/federated-credentials/')) return either(a.federated, b.federated);
    // A webhook endpoint the outbound rules allow here (nothing is sent to it), else whatever comes.
    if (field === 'events') return fc.constantFrom('client.*', 'user.created', '*', 'no.such.event');
    if (field === 'url') return fc.oneof({ arbitrary: fc.constant(webhookUrl), weight: 3 }, { arbitrary: fc.webUrl(), weight: 1 });
    // A federated credential takes a subject or an expression, never both: mostly the subject, so some get made.
    if (path.includes('/federated-credentials')) {
      if (field === 'name') return fc.constantFrom('ci-main', 'deploy.prod', '-starts-badly');
      if (field === 'subject') return fc.constantFrom('repo:contoso/orders:ref:refs/heads/main', 'system:serviceaccount:jobs:sync');
      if (field === 'claimsMatchingExpression') {
        return fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, fc.constant({ value: "claims['sub'] matches 'repo:contoso/*'", languageVersion: 1 }));
      }
      if (field === 'description' || field === 'audiences') return fc.constant(undefined);
    }
    if (field === 'issuer') return fc.constantFrom('https://token.actions.githubusercontent.com', 'https://issuer.example/tenant', 'http://insecure.example');
    if (field === 'certificate') return fc.constantFrom(certificatePem, `${certificatePem}x`, certificatePem.replace('CERTIFICATE', 'PRIVATE KEY'));
    if (field === 'email' || field.endsWith('Email')) return fc.oneof(fc.emailAddress(), fc.constant(`x${Date.now()}@example.com`));
    // A generated password costs an argon2 hash (tens of milliseconds): mostly the mailed link, then.
    if (field === 'password' || field === 'mode') return fc.oneof({ arbitrary: fc.constant('activation-link'), weight: 5 }, { arbitrary: fc.constant('generate'), weight: 1 });
    return undefined;
  };
}

/** What a tenant holds, row by row, in every table that belongs to a tenant. */
export async function snapshotOf(dataSource: DataSource, tenantId: string): Promise<Record<string, string>> {
  const tables: Array<{ table_name: string }> = await dataSource.query(
    `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'tenant_id' ORDER BY 1`,
  );
  const snapshot: Record<string, string> = {};
  for (const { table_name: table } of tables) {
    const [row] = await dataSource.query(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') AS v FROM "${table}" t WHERE tenant_id = $1`, [tenantId]);
    snapshot[table] = row.v;
  }
  return snapshot;
}

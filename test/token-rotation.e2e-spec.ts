import { beforeAll, describe, expect, it } from 'vitest';
import { pause } from './support/token-fixtures.js';
import { TokenRotationEnv } from './support/token-rotation-env.js';

/** Changes made by the admin side (rows + announceChange in one transaction) take effect at once. Throttling: token-throttling. */
describe('token endpoint: rotation and revocation', () => {
  const env = new TokenRotationEnv();
  const { token, codeOf, logs, secrets } = env;
  let fx: TokenRotationEnv['fx'];
  let tenant: TokenRotationEnv['tenant'];
  let orders: TokenRotationEnv['orders'];
  let admin: TokenRotationEnv['admin'];
  beforeAll(() => void ({ fx, tenant, orders, admin } = env));

  it('two secrets both work; a revoked one fails at once while the other still works', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    const second = await fx.secret(tenant.id, client.id);
    secrets.push(client.secret, second.value);
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(200);
    expect(await codeOf(await token(client.clientId, second.value))).toBe(200);
    await fx.change(`UPDATE client_secrets SET revoked_at = now() WHERE id = $1`, [client.secretId], {
      kind: 'client',
      tenantId: tenant.id,
      id: client.clientId,
    });
    await fx.settle();
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(7000215);
    expect(await codeOf(await token(client.clientId, second.value))).toBe(200);
  });

  it('a secret that expired is refused with 7000222', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    secrets.push(client.secret);
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(200);
    await fx.change(
      `UPDATE client_secrets SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [client.secretId],
      {
        kind: 'client',
        tenantId: tenant.id,
        id: client.clientId,
      },
    );
    await fx.settle();
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(7000222);
  });

  it('a disabled client is refused at once', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    secrets.push(client.secret);
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(200);
    await fx.change(`UPDATE api_clients SET state = 'disabled' WHERE id = $1`, [client.id], {
      kind: 'client',
      tenantId: tenant.id,
      id: client.clientId,
    });
    await fx.settle();
    const response = await token(client.clientId, client.secret);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('unauthorized_client');
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(7000112);
  });

  it('a removed grant is refused at once with invalid_scope', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read', 'Orders.Write']);
    secrets.push(client.secret);
    expect(await codeOf(await token(client.clientId, client.secret, 'api://orders/Orders.Write'))).toBe(200);
    await fx.change(
      `DELETE FROM client_scope_grants WHERE api_client_id = $1 AND scope_id = $2`,
      [client.id, orders.scopeIds['Orders.Write']],
      {
        kind: 'client',
        tenantId: tenant.id,
        id: client.clientId,
      },
    );
    await fx.settle();
    const response = await token(client.clientId, client.secret, 'api://orders/Orders.Write');
    expect(response.status).toBe(400);
    expect(await codeOf(response)).toBe(70011);
    expect(await codeOf(await token(client.clientId, client.secret, 'api://orders/Orders.Read'))).toBe(200);
  });

  it('the admin API: scopes come from the owner roles; a disabled owner disables the client', async () => {
    const owner = await fx.user(tenant.id, { roles: ['Auditor'] });
    const client = await fx.client(tenant.id, { ownerUserId: owner.id });
    const secret = await fx.secret(tenant.id, client.id);
    secrets.push(secret.value);
    await fx.grant(tenant.id, client.id, [admin.scopeIds['Tenant.Manage']!]); // direct grants are ignored
    const response = await token(client.clientId, secret.value, 'api://gatehouse-admin/.default');
    expect(response.status).toBe(200);
    const { access_token } = (await response.json()) as { access_token: string };
    const claims = JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims.roles).toEqual(['Audit.Read', 'Clients.Read', 'Requests.Read', 'Users.Read']);
    expect(await codeOf(await token(client.clientId, secret.value, 'api://gatehouse-admin/Tenant.Manage'))).toBe(70011);
    const roleless = await fx.client(tenant.id, { ownerUserId: (await fx.user(tenant.id)).id });
    const rolelessSecret = await fx.secret(tenant.id, roleless.id);
    secrets.push(rolelessSecret.value);
    expect(await codeOf(await token(roleless.clientId, rolelessSecret.value, 'api://gatehouse-admin/.default'))).toBe(
      70011,
    );
    await fx.change(`UPDATE users SET status = 'disabled' WHERE id = $1`, [owner.id], {
      kind: 'user',
      tenantId: tenant.id,
      id: owner.id,
    });
    await fx.settle();
    expect(await codeOf(await token(client.clientId, secret.value, 'api://gatehouse-admin/.default'))).toBe(7000112);
  });

  it('an operator client still awaiting scopes gets admin tokens from its roles, nothing else', async () => {
    const owner = await fx.user(tenant.id, { roles: ['ITDepartment'] });
    const client = await fx.client(tenant.id, { ownerUserId: owner.id, state: 'awaiting_scopes' });
    const secret = await fx.secret(tenant.id, client.id);
    secrets.push(secret.value);
    const response = await token(client.clientId, secret.value, 'api://gatehouse-admin/.default');
    expect(response.status).toBe(200);
    const { access_token } = (await response.json()) as { access_token: string };
    const claims = JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims.roles).toEqual(['Apis.Manage', 'Clients.Read', 'Requests.Read', 'Scopes.Assign']);
    expect(await codeOf(await token(client.clientId, secret.value, 'api://orders/.default'))).toBe(501051);
    // Roles taken away (announced as a user change): the client is left with nothing.
    await fx.change(`UPDATE users SET roles = '{}' WHERE id = $1`, [owner.id], {
      kind: 'user',
      tenantId: tenant.id,
      id: owner.id,
    });
    await fx.settle();
    expect(await codeOf(await token(client.clientId, secret.value, 'api://gatehouse-admin/.default'))).toBe(501051);
  });


  it('while the change listener is down, caches are bypassed (a silent change still takes effect)', async () => {
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    secrets.push(client.secret);
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(200);
    await fx.dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'gatehouse-listener' AND datname = current_database()`,
    );
    await fx.listenerConnected(false);
    // No announcement at all: only a bypassed (or dropped) cache can see this.
    await fx.dataSource.query(`UPDATE api_clients SET state = 'disabled' WHERE id = $1`, [client.id]);
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(7000112);
    await fx.dataSource.query(`UPDATE api_clients SET state = 'active' WHERE id = $1`, [client.id]);
    await fx.listenerConnected(true); // it reconnects after 1 s and drops every cache
    expect(await codeOf(await token(client.clientId, client.secret))).toBe(200);
  });

  it('logs hold no secret', async () => {
    await pause(100);
    for (const secret of secrets) expect(logs.text).not.toContain(secret);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_EVENTS, STALE_CREDENTIAL_EVENT } from '@gatehouse/events';
import { SchedulerService } from '../apps/worker/src/scheduler.service.js';
import { WebhookRig } from './support/webhook-apps.js';

describe('credential lifecycle events for webhooks (DESIGN §13)', () => {
  const rig = new WebhookRig(1);
  const [vault] = rig.receivers as [typeof rig.receivers[0]];

  beforeAll(() => rig.start());
  afterAll(() => rig.stop());

  it('writes client.credential.expiring where the expiry warning is mailed, and sends it', async () => {
    await rig.subscribe(vault, ['client.credential.*']);
    const clientId = await rig.write('Expiring soon');
    const secret = await rig.call('post', `/clients/${clientId}/secrets`, { displayName: 'soon', expiresInDays: 10 });
    await rig.call('post', `/clients/${clientId}/secrets`, { displayName: 'later', expiresInDays: 100 });
    expect(await rig.workers[0]!.get(SchedulerService).warnExpiringSecrets()).toMatchObject({ warned: 1 });
    await rig.pumpUntil(() => vault.received.length === 1);
    const [event] = vault.received;
    expect(event!.type).toBe('client.credential.expiring');
    expect(event!.body.data).toMatchObject({
      action: 'client.credential.expiring',
      targetType: 'client',
      targetId: clientId,
      actor: { type: 'system' },
      details: { kind: 'secret', keyId: secret.body.keyId, hint: secret.body.hint, expiresAt: secret.body.expiresAt },
    });
    expect(JSON.stringify(event!.body)).not.toContain(secret.body.secretText);
    const audit = (await rig.call('get', `/audit-events?target=${clientId}&action=client.*`)).body.items.map((e: { action: string }) => e.action);
    expect(audit).toContain('client.secret.expiry_warned'); // the mail's own event stays as it was
  });

  it('accepts client.credential.stale in a filter, for stale-credential detection to write', async () => {
    expect(KNOWN_EVENTS).toContain(STALE_CREDENTIAL_EVENT);
    const answer = await rig.call('post', '/webhooks', { url: vault.url, events: [STALE_CREDENTIAL_EVENT] });
    expect(answer.status).toBe(201);
    await rig.db.query(
      `INSERT INTO audit_events (tenant_id, actor_type, action, target_type, target_id, details) VALUES ($1, 'system', $2, 'client', 'c-1', '{"kind":"secret"}')`,
      [rig.tenant.tenantId, STALE_CREDENTIAL_EVENT],
    );
    vault.secrets = [answer.body.secret];
    await rig.pumpUntil(() => vault.received.some((r) => r.type === STALE_CREDENTIAL_EVENT));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookRig } from './support/webhook-apps.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('webhook delivery: Standard Webhooks format, retries, rotation, 410 (DESIGN §13)', () => {
  const rig = new WebhookRig(4);
  const [vault, flaky, rotating, gone] = rig.receivers as [typeof rig.receivers[0], typeof rig.receivers[0], typeof rig.receivers[0], typeof rig.receivers[0]];

  beforeAll(() => rig.start());
  afterAll(() => rig.stop());

  it('signs each delivery as Standard Webhooks: the audit event\'s id, its fields, never the secret', async () => {
    const hook = await rig.subscribe(vault, ['client.secret.*']);
    const clientId = await rig.write('Vault sync');
    const minted = await rig.call('post', `/clients/${clientId}/secrets`, { displayName: 'first' });
    expect(minted.status).toBe(201);
    await rig.pumpUntil(() => vault.received.length >= 1);
    const [delivery] = vault.received;
    expect(delivery!.type).toBe('client.secret.created');
    expect(delivery!.signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const [event] = (await rig.call('get', `/audit-events?action=client.secret.created&target=${clientId}`)).body.items;
    expect(delivery!.id).toBe(event.id);
    expect(delivery!.body).toEqual({ type: 'client.secret.created', timestamp: event.occurredAt, data: event });
    const text = JSON.stringify(delivery!.body);
    expect(text).not.toContain(minted.body.secretText);
    expect(text).not.toContain(hook.secret);
    expect(vault.received.map((r) => r.type)).toEqual(['client.secret.created']); // client.created is not in the filter
    const [logged] = await rig.deliveries(hook.id);
    expect(logged).toMatchObject({ eventId: event.id, event: 'client.secret.created', state: 'delivered', attempts: 1, lastStatusCode: 204, nextAttemptAt: null });
  });

  it('tries again after a 500 with the same webhook-id, and honours Retry-After', async () => {
    flaky.behaviour = (attempt) =>
      attempt === 1 ? { status: 500 } : attempt === 2 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 };
    const hook = await rig.subscribe(flaky, ['client.created']);
    await rig.write('Flaky');
    await rig.pumpUntil(async () => (await rig.deliveries(hook.id))[0]?.attempts === 1);
    let [logged] = await rig.deliveries(hook.id);
    expect(logged).toMatchObject({ state: 'pending', attempts: 1, lastStatusCode: 500, lastError: 'HTTP 500' });
    await rig.pumpUntil(async () => (await rig.deliveries(hook.id))[0]?.attempts === 2);
    [logged] = await rig.deliveries(hook.id);
    const wait = Date.parse(logged!.nextAttemptAt) - Date.parse(logged!.lastAttemptAt);
    expect(wait).toBeGreaterThanOrEqual(950); // Retry-After: 1, not the 300 ms step
    await rig.pumpUntil(() => flaky.received.length === 1);
    [logged] = await rig.deliveries(hook.id);
    expect(logged).toMatchObject({ state: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null });
    expect(flaky.received[0]!.id).toBe(logged!.eventId);
  });

  it('signs with both secrets for 24 hours after a rotation: a receiver with either verifies', async () => {
    const hook = await rig.subscribe(rotating, ['client.created']);
    const old = hook.secret as string;
    const rotated = await rig.call('post', `/webhooks/${hook.id}/rotate-secret`);
    rotating.secrets = [old, rotated.body.secret];
    await rig.write('After rotation');
    await rig.pumpUntil(() => rotating.received.length === 1);
    const [delivery] = rotating.received;
    expect(delivery!.signature.split(' ')).toHaveLength(2);
    expect(delivery!.verifiedBy).toEqual([0, 1]); // each secret alone verifies it
    await rig.db.query(`UPDATE webhook_subscriptions SET previous_secret_until = now() - interval '1 second' WHERE id = $1`, [hook.id]);
    await rig.write('After the window');
    await rig.pumpUntil(() => rotating.received.length === 2);
    expect(rotating.received[1]!.verifiedBy).toEqual([1]);
    expect(rotating.received[1]!.signature.split(' ')).toHaveLength(1);
  });

  it('sends a test event to the one webhook, and redelivers an event with its id', async () => {
    const hook = (await rig.call('get', '/webhooks?limit=200')).body.items.find((h: Json) => h.url === vault.url);
    const tested = await rig.call('post', `/webhooks/${hook.id}/test`);
    await rig.pumpUntil(() => vault.received.length === 2);
    expect(vault.received[1]).toMatchObject({ id: tested.body.eventId, type: 'webhook.tested' });
    expect(rotating.received.every((r) => r.type !== 'webhook.tested')).toBe(true);
    const again = await rig.call('post', `/webhooks/${hook.id}/deliveries/${tested.body.id}/redeliver`);
    expect(again.status).toBe(202);
    await rig.pumpUntil(() => vault.received.length === 3);
    expect(vault.received[2]!.id).toBe(tested.body.eventId);
  });

  it('disables a webhook whose endpoint answers 410 Gone and tells the Administrators', async () => {
    gone.behaviour = () => ({ status: 410 });
    const hook = await rig.subscribe(gone, ['client.created']);
    await rig.write('Gone 1');
    await rig.pumpUntil(async () => (await rig.call('get', `/webhooks/${hook.id}`)).body.state === 'disabled');
    const read = (await rig.call('get', `/webhooks/${hook.id}`)).body;
    expect(read.stateReason).toBe('The endpoint answered 410 Gone.');
    expect((await rig.deliveries(hook.id))[0]).toMatchObject({ state: 'failed', attempts: 1, lastStatusCode: 410 });
    await rig.write('Gone 2');
    expect(await rig.deliveries(hook.id)).toHaveLength(1); // a disabled webhook is sent nothing more
    const mails = await rig.db.query(`SELECT to_address, subject FROM emails WHERE template = 'webhook-trouble'`);
    expect(mails).toEqual([{ to_address: rig.admin.user.email, subject: `Webhook disabled: ${gone.url}` }]);
    const audit = (await rig.call('get', `/audit-events?action=webhook.disabled&target=${hook.id}`)).body.items;
    expect(audit).toHaveLength(1);
    expect(audit[0].actor.type).toBe('system');
  });
});

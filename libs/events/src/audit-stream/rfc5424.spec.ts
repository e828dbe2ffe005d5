import { describe, expect, it } from 'vitest';
import { syslogFrame } from './rfc5424.js';

describe('RFC 5424 syslog frames', () => {
  it('counts the octets of an RFC 5424 message whose MSG is the JSON event', () => {
    const event = { id: 'e1', occurredAt: '2026-12-01T10:00:00.123Z', action: 'client.secret.created', details: { note: 'Zürich ✓' } };
    const frame = syslogFrame(event, event, 'gate-1', 4242);
    const [length, ...rest] = frame.split(' ');
    const message = rest.join(' ');
    expect(Number(length)).toBe(Buffer.byteLength(message));
    expect(message).toMatch(/^<110>1 2026-12-01T10:00:00\.123Z gate-1 gatehouse 4242 client\.secret\.created - \{/);
    expect(JSON.parse(message.slice(message.indexOf('{')))).toEqual(event);
    expect(/^[\x20-\x7e]*$/.test(message)).toBe(true); // plain ASCII: no BOM needed
  });

  it('keeps header fields printable and bounded', () => {
    const frame = syslogFrame({ occurredAt: '2026-12-01T10:00:00.000Z', action: `a b\nc${'x'.repeat(40)}` }, {}, 'bad host\n', 1);
    expect(frame).toContain(' badhost gatehouse 1 abcxxxxxxxxxxxxxxxxxxxxxxxxxxxxx - {}');
  });
});

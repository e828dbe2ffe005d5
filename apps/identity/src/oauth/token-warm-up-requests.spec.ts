import { describe, expect, it } from 'vitest';
import { warmUpRequests } from './token-warm-up-requests.js';

describe('warmUpRequests', () => {
  const body = 'grant_type=client_credentials&client_id=c&client_secret=s%C3%A9&scope=api%3A%2F%2Fx%2F.default';
  const requests = warmUpRequests('/t/oauth2/v2.0/token', '127.0.0.1:4000', body).map((b) => b.toString('utf8'));

  it('writes each header set as a complete request: host, a form content type, the body and its byte length', () => {
    for (const text of requests) {
      const [head, sent] = text.split('\r\n\r\n');
      expect(head).toMatch(/^POST \/t\/oauth2\/v2\.0\/token HTTP\/1\.1\r\n/);
      expect(head).toMatch(/\r\nhost: 127\.0\.0\.1:4000(\r\n|$)/i);
      expect(head).toMatch(/\r\ncontent-type: application\/x-www-form-urlencoded/i);
      expect(head).toMatch(new RegExp(`\\r\\ncontent-length: ${Buffer.byteLength(body)}(\\r\\n|$)`, 'i'));
      expect(head).not.toMatch(/\r\nconnection: close/i); // the warm-up's connections are kept alive
      expect(sent).toBe(body);
    }
  });

  it('has more header orders than V8 keeps apart (four), so header reads end up megamorphic', () => {
    const orders = new Set(requests.map((text) => text.split('\r\n\r\n')[0]!.split('\r\n').slice(1).map((line) => line.split(':')[0]!.toLowerCase()).join(',')));
    expect(orders.size).toBeGreaterThan(4);
  });
});

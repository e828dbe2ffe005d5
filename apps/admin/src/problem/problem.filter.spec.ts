import type { ArgumentsHost } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { describe, expect, it, vi } from 'vitest';
import { ClientError, ClientErrorCode } from '@gatehouse/clients';
import { ProblemFilter } from './problem.filter.js';

function fakeHost() {
  const sent: { status?: number; type?: string; body?: string; headers: Record<string, string> } = { headers: {} };
  const res = {
    headersSent: false,
    setHeader: (name: string, value: string) => void (sent.headers[name] = value),
    status(code: number) {
      sent.status = code;
      return this;
    },
    type(value: string) {
      sent.type = value;
      return this;
    },
    send(body: string) {
      sent.body = body;
      return this;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ id: 'req-1' }) }) } as unknown as ArgumentsHost;
  return { host, sent };
}

describe('ProblemFilter', () => {
  it('answers an unknown error with 500, a generic message and an error id that is logged', () => {
    const logged = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { host, sent } = fakeHost();
    new ProblemFilter().catch(new Error('secret detail s3cr3t'), host);
    const body = JSON.parse(sent.body!);
    expect(sent.status).toBe(500);
    expect(sent.type).toBe('application/problem+json');
    expect(body).toMatchObject({ status: 500, code: 'internal_error', errorId: expect.any(String) });
    expect(sent.body).not.toContain('s3cr3t');
    expect(JSON.stringify(logged.mock.calls)).toContain(body.errorId);
    logged.mockRestore();
  });

  it('maps domain codes and lists the fields of unknown scopes', () => {
    const { host, sent } = fakeHost();
    new ProblemFilter().catch(new ClientError(ClientErrorCode.UnknownScopes, 'Unknown scopes: a/b', ['a/b']), host);
    expect(sent.status).toBe(400);
    expect(JSON.parse(sent.body!)).toMatchObject({ code: 'unknown_scopes', errors: [{ field: 'scopes' }] });
  });
});

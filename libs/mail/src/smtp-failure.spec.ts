import { describe, expect, it } from 'vitest';
import { classifySmtpFailure } from './smtp-failure.js';

const smtpError = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('classifySmtpFailure', () => {
  it('retries what may pass later and abandons only a permanent rejection of the message', () => {
    expect(classifySmtpFailure(smtpError('connect ECONNREFUSED 127.0.0.1:25', { code: 'ESOCKET' })).kind).toBe(
      'unreachable',
    );
    expect(classifySmtpFailure(smtpError('Connection timeout', { code: 'ETIMEDOUT' })).kind).toBe('unreachable');
    expect(classifySmtpFailure(smtpError('451 try again later', { code: 'EENVELOPE', responseCode: 451 })).kind).toBe(
      'deferred',
    );
    expect(classifySmtpFailure(smtpError('535 bad credentials', { code: 'EAUTH', responseCode: 535 })).kind).toBe(
      'deferred',
    );
    expect(
      classifySmtpFailure(smtpError('550 mailbox unavailable', { code: 'EENVELOPE', responseCode: 550 })).kind,
    ).toBe('rejected');
    expect(classifySmtpFailure(new Error('something else')).kind).toBe('deferred');
  });

  it('keeps the message on one line', () => {
    expect(classifySmtpFailure(smtpError('550 no\r\nsuch user', { responseCode: 550 })).message).toBe(
      '550 no such user',
    );
  });
});

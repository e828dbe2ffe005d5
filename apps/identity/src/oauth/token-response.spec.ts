import { describe, expect, it } from 'vitest';
import { responseJson } from './token.endpoint.js';

describe('responseJson', () => {
  it('writes exactly what JSON.stringify writes for a token answer, in ASCII', () => {
    const response = {
      token_type: 'Bearer' as const,
      expires_in: 3599,
      ext_expires_in: 3599,
      access_token: 'eyJhbGciOiJFUzI1NiJ9.eyJhdWQiOiJ4In0.c2lnbmF0dXJlLV8',
    };
    const text = responseJson(response);
    expect(text).toBe(JSON.stringify(response));
    expect(Buffer.byteLength(text)).toBe(text.length);
  });
});

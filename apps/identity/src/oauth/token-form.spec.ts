import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenRequestError } from '@gatehouse/tokens';
import { formValue, parseForm } from './token-form.js';

/** What URLSearchParams makes of the body, as the Map parseForm answers (no name repeated). */
function reference(body: string): Map<string, string> {
  return new Map(new URLSearchParams(body));
}

const BODIES = [
  '',
  '&',
  '&&a=1&&',
  '?grant_type=client_credentials',
  'grant_type=client_credentials&client_id=0e535d06-1d42-4ea1-8e1f-e443fa26b709&client_secret=Ab-_~.x&scope=api%3A%2F%2Forders%2F.default',
  'scope=a+b+%2B+c&empty=&bare',
  '=value&name=',
  'a=b=c',
  'client%5Fid=x',
  'name=%E2%9C%93%20ok',
  'name=100%25',
  // URLSearchParams keeps what decodeURIComponent refuses: a stray %, bytes that are not UTF-8.
  'name=100%&other=%zz',
  'name=%E2%9C&x=1',
  'name=%C0%AF',
  'name=%ED%A0%80',
  'name=caf\u00e9&x=\u{1F600}',
];

describe('parseForm', () => {
  it.each(BODIES)('reads %j as URLSearchParams does', (body) => {
    expect(parseForm(body)).toEqual(reference(body));
  });

  it('reads random bodies of form characters, escapes and broken escapes as URLSearchParams does', () => {
    const pieces = [
      'a',
      'b',
      '_',
      '=',
      '&',
      '+',
      '%',
      '%2',
      '%41',
      '%2B',
      '%26',
      '%3D',
      '%e2%9c%93',
      '%ff',
      '?',
      'é',
      ' ',
    ];
    for (let i = 0; i < 5000; i++) {
      const bytes = randomBytes(12);
      const body = [...bytes].map((byte) => pieces[byte % pieces.length]).join('');
      let expected: Map<string, string> | Error;
      try {
        const names = [...new URLSearchParams(body).keys()];
        if (new Set(names).size !== names.length) throw new Error('repeated');
        expected = reference(body);
      } catch (error) {
        expected = error as Error;
      }
      if (expected instanceof Error) expect(() => parseForm(body), body).toThrow(TokenRequestError);
      else expect(parseForm(body), body).toEqual(expected);
    }
  });

  it('refuses a parameter given twice, an empty one too, with its name', () => {
    expect(() => parseForm('scope=a&scope=b')).toThrow("The request contains the parameter 'scope' more than once.");
    expect(() => parseForm('scope=&scope=b')).toThrow(TokenRequestError);
    expect(() => parseForm('scope=%zz&scope=b')).toThrow(TokenRequestError);
  });

  it('counts an empty value as missing', () => {
    const form = parseForm('client_secret=&scope=x');
    expect(formValue(form, 'client_secret')).toBeUndefined();
    expect(formValue(form, 'scope')).toBe('x');
    expect(formValue(form, 'resource')).toBeUndefined();
  });
});

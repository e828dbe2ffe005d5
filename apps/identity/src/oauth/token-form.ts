import { printable } from '@gatehouse/logging';
import { TokenRequestError, TokenRequestErrorCode } from '@gatehouse/tokens';

/**
 * Parses an `application/x-www-form-urlencoded` body as URLSearchParams does, into a Map that
 * also holds empty values (so that a repeated name is seen whoever comes first). A parameter given
 * twice is refused (RFC 6749 §3.1).
 *
 * The token endpoint's hot path: the body is cut at `&` and `=` and only a component holding `%`
 * or `+` is decoded, by `decodeURIComponent`. Where that would throw (a `%` not followed by two
 * hex digits, bytes that are not UTF-8) the whole body is parsed again by URLSearchParams, whose
 * lenient decoding (a stray `%` kept, U+FFFD for bad bytes) is then the answer: for every body
 * decoded from bytes (no lone surrogate) the result is URLSearchParams's. Going through
 * URLSearchParams and its iterator for every request cost about a microsecond more (BENCHMARKS.md).
 */
export function parseForm(body: string): Map<string, string> {
  const form = new Map<string, string>();
  // URLSearchParams, given a string, drops one leading '?'.
  let start = body.startsWith('?') ? 1 : 0;
  while (start <= body.length) {
    let end = body.indexOf('&', start);
    if (end < 0) end = body.length;
    if (end > start) {
      const equals = body.indexOf('=', start);
      const cut = equals >= 0 && equals < end ? equals : end;
      const name = decodeComponent(body.slice(start, cut));
      const value = cut < end ? decodeComponent(body.slice(cut + 1, end)) : '';
      if (name === null || value === null) return parseFormLeniently(body);
      add(form, name, value);
    }
    start = end + 1;
  }
  return form;
}

/** The value of a parameter, an empty one counting as missing. */
export function formValue(form: Map<string, string>, name: string): string | undefined {
  const value = form.get(name);
  return value === '' ? undefined : value;
}

function parseFormLeniently(body: string): Map<string, string> {
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body)) add(form, name, value);
  return form;
}

function add(form: Map<string, string>, name: string, value: string): void {
  if (form.has(name)) {
    throw new TokenRequestError(
      TokenRequestErrorCode.MalformedRequest,
      `The request contains the parameter '${printable(name, 64)}' more than once.`,
    );
  }
  form.set(name, value);
}

/** A form component decoded (`+` is a space), or null when decodeURIComponent cannot decode it. */
export function decodeComponent(text: string): string | null {
  if (text.indexOf('%') < 0 && text.indexOf('+') < 0) return text;
  try {
    return decodeURIComponent(text.indexOf('+') < 0 ? text : text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * Characters that must never reach a response or a log line as they came: controls (CR, LF, NUL,
 * ESC…), format characters (bidirectional overrides, zero-width), lone surrogates, private-use and
 * unassigned code points, line and paragraph separators, and U+FFFD (what invalid UTF-8 decodes to).
 */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\u2028\u2029\uFFFD]/gu;

/** Request input as it may appear in a response or a log: unprintable characters replaced, length capped. */
export function printable(value: unknown, max = 100): string {
  const text = typeof value === 'string' ? value : String(value);
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(NOT_PRINTABLE, '?');
}

/** A whole line built from trusted text and input already passed through {@link printable}: one more pass, no cap. */
export function printableLine(text: string): string {
  return text.replace(NOT_PRINTABLE, '?');
}

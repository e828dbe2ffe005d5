import { SafeHtml, escapeHtml } from './html.js';

/** What a token request with a client secret needs. */
export interface TokenRequestValues {
  tokenEndpoint: string;
  clientId: string;
  secret: string;
  scope: string;
}

/** The exact client-credentials token request, ready to paste (the secret inline, to try it out). */
export function curlTokenRequest(values: TokenRequestValues): string {
  return [
    `curl -s -X POST '${values.tokenEndpoint}' \\`,
    `  --data-urlencode 'grant_type=client_credentials' \\`,
    `  --data-urlencode 'client_id=${values.clientId}' \\`,
    `  --data-urlencode 'client_secret=${values.secret}' \\`,
    `  --data-urlencode 'scope=${values.scope}'`,
  ].join('\n');
}

/**
 * A long value (a URL, a command) that may break at its joints on a narrow screen: a `<wbr>` after
 * each run of `/`, and after `=`, `?`, `&` and `,`. A `<wbr>` is no character, so the text copies
 * whole (a zero-width space would end up in the copied secret or command).
 */
export function softBreaks(text: string): SafeHtml {
  return new SafeHtml(escapeHtml(text).replace(/(\/+|=|\?|,|&amp;)/g, '$1<wbr>'));
}

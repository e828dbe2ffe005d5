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

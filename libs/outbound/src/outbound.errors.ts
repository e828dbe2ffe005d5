/** Why Gatehouse refused, or failed, to call a URL that somebody configured (SECURITY check 61). */
export enum OutboundErrorCode {
  NotHttps = 'not_https',
  CredentialsInUrl = 'credentials_in_url',
  UrlTooLong = 'url_too_long',
  InvalidUrl = 'invalid_url',
  PrivateAddress = 'private_address',
  RedirectElsewhere = 'redirect_elsewhere',
  TooManyRedirects = 'too_many_redirects',
  TooLarge = 'too_large',
  Timeout = 'timeout',
  Unreachable = 'unreachable',
}

const SENTENCES: Record<OutboundErrorCode, string> = {
  [OutboundErrorCode.NotHttps]: 'the URL must start with https://',
  [OutboundErrorCode.CredentialsInUrl]: 'the URL must not carry a user name or password',
  [OutboundErrorCode.UrlTooLong]: 'the URL is longer than 2,000 characters',
  [OutboundErrorCode.InvalidUrl]: 'the URL cannot be read',
  [OutboundErrorCode.PrivateAddress]: 'the host resolves to a private, loopback or link-local address that is not allowed',
  [OutboundErrorCode.RedirectElsewhere]: 'the server redirected to another host',
  [OutboundErrorCode.TooManyRedirects]: 'the server redirected too many times',
  [OutboundErrorCode.TooLarge]: 'the answer is larger than allowed',
  [OutboundErrorCode.Timeout]: 'the server did not answer in time',
  [OutboundErrorCode.Unreachable]: 'the server could not be reached',
};

export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    readonly url: string,
    detail?: string,
  ) {
    super(detail ? `${SENTENCES[code]} (${detail})` : SENTENCES[code]);
    this.name = 'OutboundError';
  }

  /** The rule in words, for a problem or an audit event: never the server's own text. */
  get rule(): string {
    return SENTENCES[this.code];
  }
}

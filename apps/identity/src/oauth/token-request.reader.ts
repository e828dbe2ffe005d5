import type { IncomingMessage } from 'node:http';
import { TokenRequestError, TokenRequestErrorCode, type TokenRequestInput } from '@gatehouse/tokens';
import { decodeComponent, formValue, parseForm } from './token-form.js';

export const MAX_TOKEN_BODY_BYTES = 16 * 1024;
const FORM = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const malformed = (message: string) => new TokenRequestError(TokenRequestErrorCode.MalformedRequest, message);

/**
 * Reads the raw body (the identity app has no body parser), at most 16 KiB, and calls `done` once
 * with either an error or the body. A callback rather than a promise: the token endpoint answers in
 * the tick the body arrives.
 */
export function readRawBody(req: IncomingMessage, done: (error: unknown, body: string) => void): void {
  if (Number(req.headers['content-length'] ?? 0) > MAX_TOKEN_BODY_BYTES) {
    return done(malformed(`The request body exceeds ${MAX_TOKEN_BODY_BYTES} bytes.`), '');
  }
  let chunks: Buffer[] | undefined;
  let first: Buffer | undefined;
  let size = 0;
  let settled = false;
  const settle = (error: unknown, body: string) => {
    if (settled) return;
    settled = true;
    req.off('data', onData);
    req.off('end', onEnd);
    // The error listener stays: a request aborted after the answer must not throw an unhandled 'error'.
    done(error, body);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_TOKEN_BODY_BYTES) {
      req.resume();
      return settle(malformed(`The request body exceeds ${MAX_TOKEN_BODY_BYTES} bytes.`), '');
    }
    // A form this small nearly always arrives as one chunk: keep it without a list.
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  };
  const onEnd = () => {
    const body = chunks ? Buffer.concat(chunks, size) : first;
    settle(null, body ? body.toString('utf8') : '');
  };
  const onError = (error: Error) => settle(error, '');
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
}

/** Credentials belong in the body or the Authorization header, never in a URL that proxies log. */
const CREDENTIALS_IN_URL = new Set(['client_secret', 'client_assertion']);

function refuseCredentialsInQuery(url: string): void {
  const query = url.indexOf('?');
  if (query < 0) return;
  for (const name of new URLSearchParams(url.slice(query + 1)).keys()) {
    if (CREDENTIALS_IN_URL.has(name.replace(/\[\]$/, '').toLowerCase())) {
      throw malformed(
        'Client credentials must be sent in the request body or the Authorization header, never in the URL.',
      );
    }
  }
}

/** RFC 6749 §2.3.1 + Appendix B: base64 of form-urlencoded id ":" form-urlencoded secret. */
export function parseBasic(header: string): { clientId: string; clientSecret: string } {
  const encoded = header.slice('basic '.length).trim();
  if (!BASE64.test(encoded) || encoded.length === 0)
    throw malformed('The Authorization header is not valid Basic credentials.');
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const clientId = colon < 0 ? null : decodeComponent(decoded.slice(0, colon));
  const clientSecret = colon < 0 ? null : decodeComponent(decoded.slice(colon + 1));
  if (clientId === null || clientSecret === null)
    throw malformed('The Authorization header is not valid Basic credentials.');
  return { clientId, clientSecret };
}

/** What can be refused before the body is read: credentials in the URL, a body that is not a form. */
export function checkTokenRequestHead(req: IncomingMessage): void {
  refuseCredentialsInQuery(req.url ?? '');
  if (!FORM.test(req.headers['content-type'] ?? '')) {
    throw malformed(`The request body must be 'application/x-www-form-urlencoded'.`);
  }
}

/**
 * The token request's parameters: form body plus, optionally, HTTP Basic client authentication.
 * Parameters the endpoint does not know (MSAL's x-client-SKU, client_info…) are ignored.
 */
export function tokenRequestFrom(req: IncomingMessage, tenant: string, body: string, v1 = false): TokenRequestInput {
  const form = parseForm(body);
  const authorization = req.headers.authorization;
  const input: TokenRequestInput = {
    tenant,
    grantType: formValue(form, 'grant_type'),
    clientId: formValue(form, 'client_id'),
    clientSecret: formValue(form, 'client_secret'),
    clientAssertionType: formValue(form, 'client_assertion_type'),
    clientAssertion: formValue(form, 'client_assertion'),
    scope: formValue(form, 'scope'),
    resource: formValue(form, 'resource'),
    v1,
    basic: false,
    origin: req,
  };
  if (authorization === undefined) return input;
  if (!/^basic /i.test(authorization))
    throw malformed('Only Basic client authentication is accepted in the Authorization header.');
  const basic = parseBasic(authorization);
  if (input.clientSecret !== undefined) {
    throw malformed('The client must use only one authentication method: Basic and client_secret were both sent.');
  }
  if (input.clientId !== undefined && input.clientId !== basic.clientId) {
    throw malformed('client_id in the body differs from the one in the Authorization header.');
  }
  return { ...input, ...basic, basic: true };
}

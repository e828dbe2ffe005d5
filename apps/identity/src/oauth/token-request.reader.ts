import type { Request } from 'express';
import { TokenRequestError, TokenRequestErrorCode, type TokenRequestInput } from '@gatehouse/tokens';

export const MAX_TOKEN_BODY_BYTES = 16 * 1024;
const FORM = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const malformed = (message: string) => new TokenRequestError(TokenRequestErrorCode.MalformedRequest, message);

/** Reads the raw body (the identity app has no body parser), at most 16 KiB. */
export async function readRawBody(req: Request): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_TOKEN_BODY_BYTES) {
      req.unpipe();
      throw malformed(`The request body exceeds ${MAX_TOKEN_BODY_BYTES} bytes.`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses the form; a parameter given twice is refused (RFC 6749 §3.1). */
export function parseForm(body: string): Map<string, string> {
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body)) {
    if (form.has(name)) throw malformed(`The request contains the parameter '${name.slice(0, 64)}' more than once.`);
    form.set(name, value);
  }
  return form;
}

/** RFC 6749 §2.3.1 + Appendix B: base64 of form-urlencoded id ":" form-urlencoded secret. */
export function parseBasic(header: string): { clientId: string; clientSecret: string } {
  const encoded = header.slice('basic '.length).trim();
  if (!BASE64.test(encoded) || encoded.length === 0) throw malformed('The Authorization header is not valid Basic credentials.');
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw malformed('The Authorization header is not valid Basic credentials.');
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw malformed('The Authorization header is not valid Basic credentials.');
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

/** The token request's parameters: form body plus, optionally, HTTP Basic client authentication. */
export async function readTokenRequest(req: Request, tenant: string): Promise<TokenRequestInput> {
  if (typeof req.query?.client_secret !== 'undefined') {
    throw malformed('The client secret must be sent in the request body or the Authorization header, never in the URL.');
  }
  if (!FORM.test(req.headers['content-type'] ?? '')) {
    throw malformed(`The request body must be 'application/x-www-form-urlencoded'.`);
  }
  const form = parseForm(await readRawBody(req));
  const authorization = req.headers.authorization;
  const input: TokenRequestInput = {
    tenant,
    grantType: form.get('grant_type'),
    clientId: form.get('client_id'),
    clientSecret: form.get('client_secret'),
    scope: form.get('scope'),
    basic: false,
  };
  if (authorization === undefined) return input;
  if (!/^basic /i.test(authorization)) throw malformed('Only Basic client authentication is accepted in the Authorization header.');
  const basic = parseBasic(authorization);
  if (input.clientSecret !== undefined) {
    throw malformed('The client must use only one authentication method: Basic and client_secret were both sent.');
  }
  if (input.clientId !== undefined && input.clientId !== basic.clientId) {
    throw malformed('client_id in the body differs from the one in the Authorization header.');
  }
  return { ...input, ...basic, basic: true };
}

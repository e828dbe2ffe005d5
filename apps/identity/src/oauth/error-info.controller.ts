import { Controller, Get, Query } from '@nestjs/common';

/** Short explanations behind each `error_uri` (`{PUBLIC_URL}/error?code=N`), as Entra's error lookup. */
const DESCRIPTIONS: Record<number, string> = {
  900144: 'A required parameter is missing or empty.',
  90014:
    'The request is malformed: a parameter is repeated, the content type is not form-encoded, the body is too large, the Basic credentials are invalid, or a client assertion lacks a required claim (iss, sub, aud, exp, jti).',
  900561: 'The token endpoint accepts only POST requests.',
  700054: 'This authority has no authorization endpoint; use the client credentials grant at the token endpoint.',
  90002: 'The tenant in the URL does not exist.',
  70003: "Only the 'client_credentials' grant is supported.",
  70011: 'The scope is malformed, names an unknown API or scope, or asks for a scope not granted to the client.',
  700022: 'All scopes of one request must name the same API.',
  700016: 'No client with this client id exists in the tenant.',
  7000215: 'The client secret is wrong, revoked, or disabled as unused (ask your contact person to enable it again).',
  7000222: 'The client secret has expired; ask for a new one.',
  7000112: 'The client (or the person who owns it) is disabled.',
  501051: 'No scope has been granted to this client yet.',
  90055: 'Too many failed client authentications from your address; wait for the time given in Retry-After. A valid credential is never refused.',
  7000218: "The request carries no client credential: send 'client_secret' or 'client_assertion'.",
  50027: 'The client assertion is not a well-formed JWT.',
  5002738: 'The client assertion is signed with an algorithm that is not accepted (PS256, RS256 or ES256 only).',
  5002723: "The client assertion's header names no certificate: set x5t#S256, x5t or kid.",
  700024: 'The client assertion is expired, not yet valid, or valid for more than 10 minutes.',
  700021: "The client assertion's iss and sub must both equal the client id.",
  700023: "The client assertion's aud must be this token endpoint's URL.",
  700027: "The client assertion's signature does not verify with a certificate registered (and not disabled as unused) for this client.",
  50013: 'The client assertion was already used: make a new one (with a new jti) for every request.',
  7000274: 'The certificate that signed the client assertion is not within its validity period.',
  50000: 'An internal error occurred; quote the trace id when reporting it.',
  90033: 'The service is temporarily unavailable; retry after the time given in Retry-After.',
};

@Controller('error')
export class ErrorInfoController {
  @Get()
  describe(@Query('code') code?: string): { code: string; description: string } {
    const known = DESCRIPTIONS[Number(code)];
    return { code: `AADSTS${Number(code) || 0}`, description: known ?? 'Unknown error code.' };
  }
}

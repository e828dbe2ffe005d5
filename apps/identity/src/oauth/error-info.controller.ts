import { Controller, Get, Query } from '@nestjs/common';

/** Short explanations behind each `error_uri` (`{PUBLIC_URL}/error?code=N`), as Entra's error lookup. */
const DESCRIPTIONS: Record<number, string> = {
  900144: 'A required parameter is missing or empty.',
  90014:
    'The request is malformed: a parameter is repeated, the content type is not form-encoded, the body is too large or the Basic credentials are invalid.',
  900561: 'The token endpoint accepts only POST requests.',
  700054: 'This authority has no authorization endpoint; use the client credentials grant at the token endpoint.',
  90002: 'The tenant in the URL does not exist.',
  70003: "Only the 'client_credentials' grant is supported.",
  70011: 'The scope is malformed, names an unknown API or scope, or asks for a scope not granted to the client.',
  700022: 'All scopes of one request must name the same API.',
  700016: 'No client with this client id exists in the tenant.',
  7000215: 'The client secret is wrong or has been revoked.',
  7000222: 'The client secret has expired; ask for a new one.',
  7000112: 'The client (or the person who owns it) is disabled.',
  501051: 'No scope has been granted to this client yet.',
  50053: 'Too many failed authentications for this client id; wait for the time given in Retry-After.',
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

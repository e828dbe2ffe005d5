import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ClientCredentialsService, TokenRequestError, type TokenRequestInput } from '@gatehouse/tokens';
import { readTokenRequest } from './token-request.reader.js';

/** The HTTP adapter of the token endpoint: read the request, delegate, answer with no-store. */
@Injectable()
export class TokenEndpoint {
  constructor(private readonly clientCredentials: ClientCredentialsService) {}

  async handle(req: Request, res: Response, tenant: string): Promise<void> {
    let input: TokenRequestInput | undefined;
    try {
      input = await readTokenRequest(req, tenant);
      const token = await this.clientCredentials.issue(input);
      res.status(200).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(token);
    } catch (error) {
      if (error instanceof TokenRequestError) {
        error.details.tenantId ??= tenant.slice(0, 100);
        error.details.clientId ??= input?.clientId?.slice(0, 100);
        error.details.basic ??= input?.basic;
      }
      throw error;
    }
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Actor } from '@gatehouse/audit';
import type { ClientState } from './api-client.entity.js';
import { ClientError, ClientErrorCode } from './client.errors.js';
import { ClientRepository } from './client.repository.js';
import { ClientService } from './client.service.js';
import { isUnusedGrant } from './client.view.js';

export interface UnusedScopesRemoved {
  /** The scopes taken away (none: nothing was unused, nothing written or recorded). */
  removed: string[];
  scopes: string[];
  state: ClientState;
}

/**
 * Least privilege (Scopes.Assign): a client's scopes that no token carried for 90 days — or never,
 * granted that long ago — removed in one transaction with one audit event
 * (`client.scopes.unused_removed`, naming them), the same way a scope change moves the client's state.
 */
@Injectable()
export class LeastPrivilegeService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clients: ClientRepository,
    private readonly clientService: ClientService,
  ) {}

  removeUnusedScopes(tenantId: string, actor: Actor, clientId: string): Promise<UnusedScopesRemoved> {
    return this.dataSource.transaction(async (tx) => {
      const client = await this.clients.findByClientId(tenantId, clientId, tx, true);
      if (!client) throw new ClientError(ClientErrorCode.NotFound, 'No such client.');
      const grants = await this.clients.grantUses(client.id, tx);
      const now = Date.now();
      const removed = grants.filter((g) => isUnusedGrant(g.grantedAt, g.lastUsedAt, now)).map((g) => g.scope);
      if (removed.length === 0) return { removed, scopes: grants.map((g) => g.scope), state: client.state };
      const kept = grants.map((g) => g.scope).filter((scope) => !removed.includes(scope));
      const after = await this.clientService.applyScopes(tx, actor, client, kept, 'client.scopes.unused_removed');
      return { removed, ...after };
    });
  }
}

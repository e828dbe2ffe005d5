import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { announceChange, uniqueViolation } from '@gatehouse/database';
import type { ApiClient } from './api-client.entity.js';
import type { ClaimsMatchingExpression } from './claims-expression.js';
import { ClientError, ClientErrorCode } from './client.errors.js';
import { ClientRepository } from './client.repository.js';
import { ClientService } from './client.service.js';
import { FederatedCredentialError, FederatedCredentialErrorCode } from './federated-credential.errors.js';
import { FederatedCredentialRepository } from './federated-credential.repository.js';
import { MAX_FEDERATED_CREDENTIALS, checkMatch } from './federated-credential.rules.js';
import { CredentialPolicyService } from './policy/credential-policy.service.js';
import {
  type FederatedCredentialView,
  federatedAuditDetails,
  toFederatedCredentialView,
} from './federated-credential.view.js';

export interface AddFederatedCredentialInput {
  name: string;
  issuer: string;
  subject?: string;
  claimsMatchingExpression?: ClaimsMatchingExpression;
  audiences?: string[];
  description?: string;
}

/** A change of a credential; `subject` or `claimsMatchingExpression` replaces the other. The name stays. */
export interface UpdateFederatedCredentialInput {
  issuer?: string;
  subject?: string;
  claimsMatchingExpression?: ClaimsMatchingExpression;
  audiences?: string[];
  description?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,119}$/;

/**
 * Federated credentials of API clients (DESIGN §11): add, list, change, remove. Each change is
 * audited and announced (token caches drop the client), and allowed only past ClientService's one
 * gate: an operator client's credentials are its owner's and the Administrators' alone.
 */
@Injectable()
export class FederatedCredentialService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clients: ClientRepository,
    private readonly clientService: ClientService,
    private readonly credentials: FederatedCredentialRepository,
    private readonly audit: AuditService,
    private readonly policy: CredentialPolicyService,
  ) {}

  async add(tenantId: string, actor: Actor, clientId: string, input: AddFederatedCredentialInput): Promise<FederatedCredentialView> {
    if (!NAME.test(input.name)) {
      throw new FederatedCredentialError(
        FederatedCredentialErrorCode.Invalid,
        'name is 1 to 120 of A-Z a-z 0-9 _ . - and starts with a letter or digit',
        'name',
      );
    }
    const match = checkMatch(input, this.config.publicUrl);
    try {
      return await this.dataSource.transaction(async (tx) => {
        const client = await this.clientService.requireManageable(tenantId, actor, clientId, tx);
        await this.policy.assertAllowed(tenantId, tx, { kind: 'federated' }, null);
        if ((await this.credentials.countOfClient(tx, client.id)) >= MAX_FEDERATED_CREDENTIALS) {
          throw new FederatedCredentialError(
            FederatedCredentialErrorCode.TooMany,
            `A client has at most ${MAX_FEDERATED_CREDENTIALS} federated credentials: remove one first.`,
          );
        }
        const row = this.credentials.create(tx, {
          tenantId,
          apiClientId: client.id,
          name: input.name,
          description: input.description ?? '',
          ...match,
        });
        const view = toFederatedCredentialView(await this.credentials.save(tx, row));
        await this.changed(tx, tenantId, actor, 'client.federated_credential.added', client, federatedAuditDetails(view));
        return view;
      });
    } catch (error) {
      if (uniqueViolation(error) === 'client_federated_credentials_client_name_key') {
        throw new FederatedCredentialError(
          FederatedCredentialErrorCode.NameTaken,
          `The client has a federated credential named ${input.name} already.`,
        );
      }
      throw error;
    }
  }

  async list(tenantId: string, clientId: string): Promise<FederatedCredentialView[]> {
    const client = await this.clients.findByClientId(tenantId, clientId);
    if (!client) throw new ClientError(ClientErrorCode.NotFound, 'No such client.');
    return (await this.credentials.ofClient(tenantId, client.id)).map(toFederatedCredentialView);
  }

  async update(
    tenantId: string,
    actor: Actor,
    clientId: string,
    id: string,
    input: UpdateFederatedCredentialInput,
  ): Promise<FederatedCredentialView> {
    return this.dataSource.transaction(async (tx) => {
      const client = await this.clientService.requireManageable(tenantId, actor, clientId, tx);
      const row = await this.found(tx, client, id);
      const current = toFederatedCredentialView(row);
      const before = federatedAuditDetails(current);
      const bySubject = input.subject !== undefined || input.claimsMatchingExpression !== undefined;
      const match = checkMatch(
        {
          issuer: input.issuer ?? row.issuer,
          subject: bySubject ? input.subject : current.subject,
          claimsMatchingExpression: bySubject ? input.claimsMatchingExpression : current.claimsMatchingExpression,
          audiences: input.audiences ?? row.audiences,
        },
        this.config.publicUrl,
      );
      Object.assign(row, match, { description: input.description ?? row.description });
      const view = toFederatedCredentialView(await this.credentials.save(tx, row));
      await this.changed(tx, tenantId, actor, 'client.federated_credential.updated', client, {
        before,
        after: federatedAuditDetails(view),
      });
      return view;
    });
  }

  async remove(tenantId: string, actor: Actor, clientId: string, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const client = await this.clientService.requireManageable(tenantId, actor, clientId, tx);
      const row = await this.found(tx, client, id);
      await this.credentials.delete(tx, row.id);
      const details = federatedAuditDetails(toFederatedCredentialView(row));
      await this.changed(tx, tenantId, actor, 'client.federated_credential.removed', client, details);
    });
  }

  private async found(tx: EntityManager, client: ApiClient, id: string) {
    const row = await this.credentials.findOne(tx, client.id, id);
    if (!row) throw new FederatedCredentialError(FederatedCredentialErrorCode.NotFound, 'No such federated credential.');
    return row;
  }

  /** The audit event, and the change announced so every token cache drops the client. */
  private async changed(
    tx: EntityManager,
    tenantId: string,
    actor: Actor,
    action: string,
    client: ApiClient,
    details: Record<string, unknown>,
  ): Promise<void> {
    await this.audit.record(tx, { tenantId, actor, action, targetType: 'client', targetId: client.clientId, details });
    await announceChange(tx, 'client', tenantId, client.clientId);
  }
}

import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { UserRepository } from '@gatehouse/accounts';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type Page, type PageRequest, announceChange, decodeCursor, pageSize, toPage } from '@gatehouse/database';
import { SecretHasher, generateClientSecret, secretHint } from '@gatehouse/crypto';
import { OrganisationService } from '@gatehouse/organisations';
import type { ApiClient, ClientState } from './api-client.entity.js';
import { ClientError, ClientErrorCode } from './client.errors.js';
import { ClientRepository } from './client.repository.js';
import { mayManageClientOf } from './operator-client.policy.js';
import { operatorClientRefused, ownerHasRoles, requireOwnerFor } from './client-owner.js';
import { type ClientView, type IssuedSecret, type SecretView, isUnusedGrant, toClientView, toSecretView } from './client.view.js';
import { ScopeResolver } from './scope-resolver.js';
import { CredentialPolicyService, refuseOutsidePolicy } from './policy/credential-policy.service.js';
import { MAX_SECRET_DAYS, defaultSecretDays } from './policy/credential-policy.rules.js';

export interface CreateClientInput {
  displayName: string;
  ownerUserId?: string;
  contactEmail?: string;
  /** The partner organisation the client belongs to (an active one). */
  organisationId?: string | null;
}

export interface ClientFilter extends PageRequest {
  state?: ClientState;
  ownerUserId?: string;
}

export interface IssueSecretInput {
  displayName?: string;
  expiresInDays?: number;
}

/**
 * Called inside the transaction in which a client turns `active` (scopes assigned, or enabled
 * with scopes), with the acting principal. Use cases that span contexts (the first credential
 * handover of an approved access request) register here: clients depends on none of them.
 */
export type ClientActivatedHook = (em: EntityManager, client: ApiClient, actor: Actor) => Promise<void>;

export const DEFAULT_SECRET_DAYS = 180;

/** API clients: lifecycle, granted scopes and secrets. */
@Injectable()
export class ClientService {
  private readonly activatedHooks: ClientActivatedHook[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clients: ClientRepository,
    private readonly users: UserRepository,
    private readonly scopes: ScopeResolver,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
    private readonly organisations: OrganisationService,
    private readonly policy: CredentialPolicyService,
  ) {}

  onActivated(hook: ClientActivatedHook): void {
    this.activatedHooks.push(hook);
  }

  /** `active` at once when the owner holds a role (an operator's client), else `awaiting_scopes`. */
  async create(tenantId: string, actor: Actor, input: CreateClientInput, em?: EntityManager): Promise<ClientView> {
    return this.transaction(em, async (tx) => {
      const owner = input.ownerUserId ? await requireOwnerFor(this.users, tx, tenantId, actor, input.ownerUserId) : null;
      const organisation = input.organisationId ? await this.organisations.requireAssignable(tx, tenantId, input.organisationId) : null;
      const client = await this.clients.insert(tx, {
        tenantId,
        organisationId: organisation?.id ?? null,
        clientId: randomUUID(),
        displayName: input.displayName,
        ownerUserId: owner?.id ?? null,
        createdByUserId: actor.userId,
        contactEmail: input.contactEmail ?? null,
        state: owner && owner.roles.length > 0 ? 'active' : 'awaiting_scopes',
      });
      await this.record(tx, tenantId, actor, 'client.created', client, {
        displayName: client.displayName,
        ownerUserId: client.ownerUserId,
        contactEmail: client.contactEmail,
        state: client.state,
        organisationId: client.organisationId,
      });
      await announceChange(tx, 'client', tenantId, client.clientId);
      return toClientView(client, []);
    });
  }

  async list(tenantId: string, filter: ClientFilter): Promise<Page<ClientView>> {
    const size = pageSize(filter.limit);
    const rows = await this.clients.page(tenantId, { ...filter, after: decodeCursor(filter.cursor), take: size + 1 });
    const granted = await this.clients.grantedScopes(rows.slice(0, size).map((c) => c.id));
    return toPage(
      rows,
      size,
      (c) => ({ at: c.createdAt, id: c.id }),
      (c) => toClientView(c, granted.filter((g) => g.apiClientId === c.id).map((g) => g.scope)),
    );
  }

  /** One client with its scopes; `em` reads inside the caller's transaction (and locks the client's row). */
  async get(tenantId: string, clientId: string, em?: EntityManager): Promise<ClientView> {
    const client = await this.require(tenantId, clientId, em);
    const grants = await this.clients.grantUses(client.id, em);
    const now = Date.now();
    return {
      ...toClientView(client, grants.map((g) => g.scope)),
      scopeGrants: grants.map((g) => ({
        scope: g.scope,
        grantedAt: g.grantedAt.toISOString(),
        lastUsedAt: g.lastUsedAt?.toISOString() ?? null,
        unused: isUnusedGrant(g.grantedAt, g.lastUsedAt, now),
      })),
    };
  }

  /** The client behind an admin token, or `null`: read on every request so changes act at once. */
  findByClientId(tenantId: string, clientId: string): Promise<ApiClient | null> {
    return this.clients.findByClientId(tenantId, clientId);
  }

  /** Clients owned by a user, oldest first (for bootstrap reruns); `em` to read inside a transaction. */
  findOwnedBy(tenantId: string, ownerUserId: string, em?: EntityManager): Promise<ApiClient[]> {
    return this.clients.clientsOwnedBy(tenantId, [ownerUserId], em);
  }

  /** Puts the client into an active organisation of the tenant, or out of its one with `null` (audited as `client.organisation.set`). */
  async setOrganisation(tenantId: string, actor: Actor, clientId: string, organisationId: string | null): Promise<ClientView> {
    return this.dataSource.transaction(async (tx) => {
      const client = await this.require(tenantId, clientId, tx);
      const next = organisationId === null ? null : (await this.organisations.requireAssignable(tx, tenantId, organisationId)).id;
      if (next !== client.organisationId) {
        const before = client.organisationId;
        client.organisationId = next;
        await this.clients.save(tx, client);
        await this.record(tx, tenantId, actor, 'client.organisation.set', client, { before: { organisationId: before }, changes: { organisationId: next } });
      }
      return toClientView(client, await this.scopeStrings(client, tx));
    });
  }

  disable(tenantId: string, actor: Actor, clientId: string): Promise<ClientView> {
    return this.changeState(tenantId, actor, clientId, 'client.disabled', async () => 'disabled');
  }

  /** Back to `active` when it has grants or its owner a role, else `awaiting_scopes`. */
  enable(tenantId: string, actor: Actor, clientId: string): Promise<ClientView> {
    return this.changeState(tenantId, actor, clientId, 'client.enabled', async (tx, client) =>
      (await this.clients.countGrants(client.id, tx)) > 0 || (await ownerHasRoles(this.users, tx, client)) ? 'active' : 'awaiting_scopes',
    );
  }

  /** Replaces the granted scopes in one transaction; returns the new set and state. */
  async setScopes(tenantId: string, actor: Actor, clientId: string, requested: string[]): Promise<{ scopes: string[]; state: ClientState }> {
    return this.dataSource.transaction(async (tx) => {
      const client = await this.require(tenantId, clientId, tx);
      return this.applyScopes(tx, actor, client, requested, 'client.scopes.set');
    });
  }

  /**
   * The grants made exactly `requested` on the client locked in `tx`, its state moved with them,
   * audited as `action` (`client.scopes.set`, or least privilege's `client.scopes.unused_removed`).
   */
  async applyScopes(tx: EntityManager, actor: Actor, client: ApiClient, requested: string[], action: string): Promise<{ scopes: string[]; state: ClientState }> {
    const tenantId = client.tenantId;
    const before = await this.scopeStrings(client, tx);
    const stateBefore = client.state;
    const resolved = await this.scopes.resolve(tx, tenantId, requested);
    await this.clients.replaceGrants(tx, client, resolved.map((scope) => scope.id));
    if (client.state === 'awaiting_scopes' && resolved.length > 0) client.state = 'active';
    else if (client.state === 'active' && resolved.length === 0 && !(await ownerHasRoles(this.users, tx, client))) client.state = 'awaiting_scopes';
    const saved = await this.clients.save(tx, client);
    const scopes = await this.scopeStrings(client, tx);
    const added = scopes.filter((scope) => !before.includes(scope));
    const removed = before.filter((scope) => !scopes.includes(scope));
    await this.record(tx, tenantId, actor, action, saved, { before, after: scopes, added, removed, state: saved.state });
    await this.activated(tx, stateBefore, saved, actor);
    await announceChange(tx, 'client', tenantId, client.clientId);
    return { scopes, state: saved.state };
  }

  /**
   * A new secret; its value is in this answer only (the database keeps a keyed hash). Within the
   * tenant's credential policy: refused when it forbids secrets or a longer life than asked; left
   * unasked, the lifetime is the default capped at the policy's maximum (handovers, bootstrap).
   */
  async issueSecret(tenantId: string, actor: Actor, clientId: string, input: IssueSecretInput, em?: EntityManager): Promise<IssuedSecret> {
    const asked = input.expiresInDays;
    if (asked !== undefined && (!Number.isInteger(asked) || asked < 1 || asked > MAX_SECRET_DAYS)) {
      throw new ClientError(ClientErrorCode.InvalidSecretExpiry, `expiresInDays must be 1 to ${MAX_SECRET_DAYS}.`);
    }
    return this.transaction(em, async (tx) => {
      const client = await this.requireManageable(tenantId, actor, clientId, tx);
      const policy = await this.policy.policyOf(tenantId, tx);
      const days = asked ?? defaultSecretDays(policy, DEFAULT_SECRET_DAYS);
      const now = new Date();
      const expiresAt = new Date(now.getTime() + days * 86_400_000);
      refuseOutsidePolicy({ kind: 'secret', createdAt: now, expiresAt }, policy, 'expiresInDays');
      const secretText = generateClientSecret();
      const secret = await this.clients.insertSecret(tx, {
        tenantId,
        apiClientId: client.id,
        keyId: randomUUID(),
        hint: secretHint(secretText),
        displayName: input.displayName ?? '',
        secretHash: this.hasher.hash(secretText),
        expiresAt,
      });
      const view = toSecretView(secret);
      await this.record(tx, tenantId, actor, 'client.secret.created', client, {
        keyId: view.keyId,
        hint: view.hint,
        displayName: view.displayName,
        expiresAt: view.expiresAt,
      });
      await announceChange(tx, 'client', tenantId, client.clientId);
      return { keyId: view.keyId, hint: view.hint, secretText, expiresAt: view.expiresAt, displayName: view.displayName };
    });
  }

  async listSecrets(tenantId: string, clientId: string): Promise<SecretView[]> {
    const client = await this.require(tenantId, clientId);
    return (await this.clients.secretsOf(client.id)).map(toSecretView);
  }

  /** Revokes one secret; revoking a revoked secret changes nothing. */
  async revokeSecret(tenantId: string, actor: Actor, clientId: string, keyId: string, em?: EntityManager): Promise<void> {
    await this.transaction(em, async (tx) => {
      const client = await this.requireManageable(tenantId, actor, clientId, tx);
      const secret = await this.clients.findSecret(tx, client.id, keyId);
      if (!secret) throw new ClientError(ClientErrorCode.SecretNotFound, 'No such secret.');
      if (secret.revokedAt) return;
      await this.clients.markRevoked(tx, secret, new Date());
      await this.record(tx, tenantId, actor, 'client.secret.revoked', client, { keyId, hint: secret.hint });
      await announceChange(tx, 'client', tenantId, client.clientId);
    });
  }

  private async changeState(
    tenantId: string,
    actor: Actor,
    clientId: string,
    action: string,
    next: (tx: EntityManager, client: ApiClient) => Promise<ClientState>,
  ): Promise<ClientView> {
    return this.dataSource.transaction(async (tx) => {
      const client = await this.requireManageable(tenantId, actor, clientId, tx);
      const before = client.state;
      client.state = await next(tx, client);
      const saved = await this.clients.save(tx, client);
      await this.record(tx, tenantId, actor, action, saved, { before, state: saved.state });
      await this.activated(tx, before, saved, actor);
      await announceChange(tx, 'client', tenantId, client.clientId);
      return toClientView(saved, await this.scopeStrings(saved, tx));
    });
  }

  /**
   * The one gate before anything mints, revokes or hands over a client's credentials or changes
   * its state: the client of this tenant, row-locked in the caller's transaction, if the actor may
   * manage it ({@link mayManageClientOf}: an operator client is its owner's and the
   * Administrators' alone). Every such path — REST, console, handover — goes through here.
   */
  async requireManageable(tenantId: string, actor: Actor, clientId: string, em: EntityManager): Promise<ApiClient> {
    const client = await this.require(tenantId, clientId, em);
    const owner = client.ownerUserId ? await this.users.findById(tenantId, client.ownerUserId, em) : null;
    if (!mayManageClientOf(actor, owner)) throw operatorClientRefused();
    return client;
  }

  private async activated(tx: EntityManager, before: ClientState, client: ApiClient, actor: Actor): Promise<void> {
    if (before === 'active' || client.state !== 'active') return;
    for (const hook of this.activatedHooks) await hook(tx, client, actor);
  }

  private async scopeStrings(client: ApiClient, em?: EntityManager): Promise<string[]> {
    return (await this.clients.grantedScopes([client.id], em)).map((g) => g.scope);
  }

  private async require(tenantId: string, clientId: string, em?: EntityManager): Promise<ApiClient> {
    const client = await this.clients.findByClientId(tenantId, clientId, em, em !== undefined);
    if (!client) throw new ClientError(ClientErrorCode.NotFound, 'No such client.');
    return client;
  }

  private record(em: EntityManager, tenantId: string, actor: Actor, action: string, client: ApiClient, details: Record<string, unknown>) {
    return this.audit.record(em, { tenantId, actor, action, targetType: 'client', targetId: client.clientId, details });
  }

  private transaction<T>(em: EntityManager | undefined, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return em ? work(em) : this.dataSource.transaction(work);
  }
}

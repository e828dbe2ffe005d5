import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ALL_PERMISSIONS } from '@gatehouse/accounts';
import { type Actor, AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { type Page, type PageRequest, decodeCursor, pageSize, toPage } from '@gatehouse/database';
import { announceChange, uniqueViolation } from '@gatehouse/database';
import { ApiScope } from './api-scope.entity.js';
import { ADMIN_API_IDENTIFIER, type AccessTokenTyp, Api, TOKEN_EXCHANGE_IDENTIFIER } from './api.entity.js';
import { ApiError, ApiErrorCode } from './api.errors.js';
import { ApiRepository } from './api.repository.js';

export interface ApiScopeView {
  id: string;
  value: string;
  description: string;
}

export interface ApiView {
  id: string;
  appId: string;
  identifier: string;
  displayName: string;
  builtIn: boolean;
  /** Entra's requestedAccessTokenVersion: 1 (aud = identifier, v1 claims) or 2. */
  accessTokenVersion: number;
  /** The `typ` of its access tokens: JWT (default) or at+jwt. */
  accessTokenTyp: AccessTokenTyp;
  createdAt: string;
  scopes: ApiScopeView[];
}

export interface CreateApiInput {
  identifier: string;
  displayName: string;
  accessTokenVersion?: 1 | 2;
  accessTokenTyp?: AccessTokenTyp;
}

export interface UpdateApiInput {
  displayName?: string;
  accessTokenVersion?: 1 | 2;
  accessTokenTyp?: AccessTokenTyp;
}

export interface AddScopeInput {
  value: string;
  description?: string;
}

/** The scope suffix a token request uses for "every scope of this API" (the Entra rule). */
const DEFAULT_SCOPE = '.default';
const SCOPE_VALUE = /^[A-Za-z0-9._-]{1,100}$/;
const IDENTIFIER = /^(api:\/\/[^\s/?#][^\s?#]*|https:\/\/[^\s/?#][^\s?#]*)$/;

export function toScopeView(scope: ApiScope): ApiScopeView {
  return { id: scope.id, value: scope.value, description: scope.description };
}

export function toApiView(api: Api, scopes: ApiScope[]): ApiView {
  return {
    id: api.id,
    appId: api.appId,
    identifier: api.identifier,
    displayName: api.displayName,
    builtIn: api.builtIn,
    accessTokenVersion: api.accessTokenVersion,
    accessTokenTyp: api.accessTokenTyp,
    createdAt: api.createdAt.toISOString(),
    scopes: scopes.filter((scope) => scope.apiId === api.id).map(toScopeView),
  };
}

/** The service's protected APIs and the scopes they expose. */
@Injectable()
export class ApiService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly apis: ApiRepository,
    private readonly audit: AuditService,
  ) {}

  /** Creates (or completes) the tenant's `api://gatehouse-admin` with one scope per permission. Idempotent. */
  async createBuiltInAdminApi(em: EntityManager, tenantId: string): Promise<Api> {
    let api = await this.apis.findByIdentifier(tenantId, ADMIN_API_IDENTIFIER, em);
    if (!api) {
      api = await this.apis.insertApi(em, {
        tenantId,
        appId: randomUUID(),
        identifier: ADMIN_API_IDENTIFIER,
        displayName: 'Gatehouse admin API',
        builtIn: true,
      });
      await this.audit.record(em, {
        tenantId,
        actor: SYSTEM_ACTOR,
        action: 'api.created',
        targetType: 'api',
        targetId: api.id,
        details: { identifier: api.identifier, builtIn: true },
      });
    }
    const existing = new Set((await this.apis.scopesOf([api.id], em)).map((scope) => scope.value));
    for (const permission of ALL_PERMISSIONS.filter((p) => !existing.has(p))) {
      await this.apis.insertScope(em, { tenantId, apiId: api.id, value: permission, description: `Admin: ${permission}` });
    }
    await announceChange(em, 'tenant', tenantId);
    return api;
  }

  async create(tenantId: string, actor: Actor, input: CreateApiInput): Promise<ApiView> {
    const identifier = input.identifier.trim();
    if (identifier.toLowerCase() === ADMIN_API_IDENTIFIER || identifier.toLowerCase().startsWith(`${ADMIN_API_IDENTIFIER}/`)) {
      throw new ApiError(ApiErrorCode.IdentifierReserved, `${ADMIN_API_IDENTIFIER} is reserved.`);
    }
    if (identifier.toLowerCase() === TOKEN_EXCHANGE_IDENTIFIER.toLowerCase()) {
      throw new ApiError(ApiErrorCode.IdentifierReserved, `${TOKEN_EXCHANGE_IDENTIFIER} is reserved: every tenant issues tokens for it to be exchanged elsewhere.`);
    }
    if (!IDENTIFIER.test(identifier) || identifier.endsWith('/') || identifier.length > 200) {
      throw new ApiError(ApiErrorCode.IdentifierInvalid, 'The identifier must be an api://… or https://… URI.');
    }
    try {
      return await this.dataSource.transaction(async (em) => {
        const api = await this.apis.insertApi(em, {
          tenantId,
          appId: randomUUID(),
          identifier,
          displayName: input.displayName,
          builtIn: false,
          accessTokenVersion: input.accessTokenVersion ?? 2,
          accessTokenTyp: input.accessTokenTyp ?? 'JWT',
        });
        await this.audit.record(em, {
          tenantId,
          actor,
          action: 'api.created',
          targetType: 'api',
          targetId: api.id,
          details: { identifier, displayName: input.displayName, appId: api.appId, accessTokenVersion: api.accessTokenVersion, accessTokenTyp: api.accessTokenTyp },
        });
        await announceChange(em, 'tenant', tenantId);
        return toApiView(api, []);
      });
    } catch (error) {
      if (uniqueViolation(error) === 'apis_tenant_identifier_key') {
        throw new ApiError(ApiErrorCode.IdentifierTaken, `An API with identifier ${identifier} exists already.`);
      }
      throw error;
    }
  }

  async list(tenantId: string, request: PageRequest): Promise<Page<ApiView>> {
    const size = pageSize(request.limit);
    const rows = await this.apis.page(tenantId, decodeCursor(request.cursor), size + 1);
    const scopes = await this.apis.scopesOf(rows.slice(0, size).map((api) => api.id));
    return toPage(rows, size, (api) => ({ at: api.createdAt, id: api.id }), (api) => toApiView(api, scopes));
  }

  async get(tenantId: string, id: string): Promise<ApiView> {
    const api = await this.apis.findById(tenantId, id);
    if (!api) throw new ApiError(ApiErrorCode.NotFound, 'No such API.');
    return toApiView(api, await this.apis.scopesOf([api.id]));
  }

  /** Renames an API or changes the version of the tokens issued for it (the next token has it). */
  async update(tenantId: string, actor: Actor, apiId: string, input: UpdateApiInput): Promise<ApiView> {
    return this.dataSource.transaction(async (em) => {
      const api = await this.apis.findById(tenantId, apiId, em, true);
      if (!api) throw new ApiError(ApiErrorCode.NotFound, 'No such API.');
      if (api.builtIn) throw new ApiError(ApiErrorCode.BuiltInImmutable, 'The built-in admin API cannot be changed.');
      const before = { displayName: api.displayName, accessTokenVersion: api.accessTokenVersion, accessTokenTyp: api.accessTokenTyp };
      api.displayName = input.displayName ?? api.displayName;
      api.accessTokenVersion = input.accessTokenVersion ?? api.accessTokenVersion;
      api.accessTokenTyp = input.accessTokenTyp ?? api.accessTokenTyp;
      const saved = await em.getRepository(Api).save(api);
      await this.audit.record(em, {
        tenantId,
        actor,
        action: 'api.updated',
        targetType: 'api',
        targetId: api.id,
        details: {
          before,
          after: { displayName: saved.displayName, accessTokenVersion: saved.accessTokenVersion, accessTokenTyp: saved.accessTokenTyp },
        },
      });
      await announceChange(em, 'tenant', tenantId);
      return toApiView(saved, await this.apis.scopesOf([api.id], em));
    });
  }

  async addScope(tenantId: string, actor: Actor, apiId: string, input: AddScopeInput): Promise<ApiScopeView> {
    if (!SCOPE_VALUE.test(input.value)) {
      throw new ApiError(ApiErrorCode.ScopeInvalid, 'A scope value is 1 to 100 of A-Z a-z 0-9 . _ -');
    }
    if (input.value.toLowerCase() === DEFAULT_SCOPE) {
      throw new ApiError(ApiErrorCode.ScopeInvalid, `${DEFAULT_SCOPE} is reserved: it asks for every scope of an API.`);
    }
    try {
      return await this.dataSource.transaction(async (em) => {
        const api = await this.apis.findById(tenantId, apiId, em, true);
        if (!api) throw new ApiError(ApiErrorCode.NotFound, 'No such API.');
        if (api.builtIn) throw new ApiError(ApiErrorCode.BuiltInImmutable, 'The built-in admin API cannot be changed.');
        const scope = await this.apis.insertScope(em, { tenantId, apiId, value: input.value, description: input.description ?? '' });
        await this.audit.record(em, {
          tenantId,
          actor,
          action: 'api.scope.created',
          targetType: 'api',
          targetId: api.id,
          details: { value: scope.value, description: scope.description, identifier: api.identifier },
        });
        await announceChange(em, 'tenant', tenantId);
        return toScopeView(scope);
      });
    } catch (error) {
      if (uniqueViolation(error) === 'api_scopes_api_value_key') {
        throw new ApiError(ApiErrorCode.ScopeTaken, `The API has a scope ${input.value} already.`);
      }
      throw error;
    }
  }
}

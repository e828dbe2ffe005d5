import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type Page, type PageRequest, decodeCursor, pageSize, toPage, uniqueViolation } from '@gatehouse/database';
import type { Organisation, OrganisationState } from './organisation.entity.js';
import { OrganisationError, OrganisationErrorCode } from './organisation.errors.js';
import { normalizedName, organisationName } from './organisation-name.js';
import { OrganisationRepository } from './organisation.repository.js';
import { type OrganisationDetail, type OrganisationView, organisationView } from './organisation.view.js';

export interface OrganisationFilter extends PageRequest {
  /** Part of the name, any case. */
  search?: string;
  state?: OrganisationState;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function notFound(): OrganisationError {
  return new OrganisationError(OrganisationErrorCode.NotFound, 'No such organisation in this tenant.');
}

/**
 * Partner organisations (§12): create, rename, list, read with what belongs to them, and the
 * look-ups other use cases make (an approval picks or creates one by name; a user or client is
 * assigned to one). Offboarding and restore are in {@link OffboardingService}.
 */
@Injectable()
export class OrganisationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organisations: OrganisationRepository,
    private readonly audit: AuditService,
  ) {}

  async create(tenantId: string, actor: Actor, input: { name: string }): Promise<OrganisationView> {
    const name = organisationName(input.name);
    const row = await this.dataSource.transaction(async (em) => {
      if (await this.organisations.findByName(em, tenantId, normalizedName(name))) throw nameTaken(name);
      const saved = await this.insert(em, tenantId, name);
      await this.record(em, tenantId, actor, 'organisation.created', saved.id, { name });
      return saved;
    });
    return organisationView(row);
  }

  async list(tenantId: string, filter: OrganisationFilter): Promise<Page<OrganisationView>> {
    const size = pageSize(filter.limit);
    const search = filter.search?.trim();
    const rows = await this.organisations.list(tenantId, { search: search || undefined, state: filter.state }, decodeCursor(filter.cursor), size + 1);
    return toPage(rows, size, (row) => ({ at: row.createdAt, id: row.id }), organisationView);
  }

  async get(tenantId: string, id: string): Promise<OrganisationView> {
    return organisationView(await this.found(tenantId, id));
  }

  /** The organisation with its people, clients, requests and handovers. */
  async detail(tenantId: string, id: string): Promise<OrganisationDetail> {
    const row = await this.found(tenantId, id);
    return { ...organisationView(row), ...(await this.organisations.members(tenantId, row.id)) };
  }

  async update(tenantId: string, actor: Actor, id: string, input: { name?: string }): Promise<OrganisationView> {
    const name = input.name === undefined ? undefined : organisationName(input.name);
    const row = await this.dataSource.transaction(async (em) => {
      const row = await this.locked(em, tenantId, id);
      if (name === undefined || name === row.name) return row;
      const other = await this.organisations.findByName(em, tenantId, normalizedName(name));
      if (other && other.id !== row.id) throw nameTaken(name);
      await this.organisations.update(em, row.id, { name, nameNormalized: normalizedName(name) }).catch(rethrowTaken(name));
      await this.record(em, tenantId, actor, 'organisation.updated', row.id, { before: { name: row.name }, changes: { name } });
      return (await this.organisations.find(tenantId, row.id, em))!;
    });
    return organisationView(row);
  }

  /**
   * Inside an approval's transaction: the organisation of this name (any case), created (and
   * audited) when there is none. An offboarded one takes nobody new until it is restored.
   */
  async pickOrCreate(em: EntityManager, tenantId: string, actor: Actor, typed: string): Promise<Organisation> {
    const name = organisationName(typed, 'organisation');
    const key = normalizedName(name);
    let row = await this.organisations.findByName(em, tenantId, key);
    if (!row) {
      const inserted: Array<{ id: string }> = await em.query(
        `INSERT INTO organisations (tenant_id, name, name_normalized) VALUES ($1, $2, $3)
         ON CONFLICT (tenant_id, name_normalized) DO NOTHING RETURNING id`,
        [tenantId, name, key],
      );
      if (inserted[0]) await this.record(em, tenantId, actor, 'organisation.created', inserted[0].id, { name });
      row = await this.organisations.findByName(em, tenantId, key);
    }
    return this.assignable(row!, 'organisation');
  }

  /** Inside the caller's transaction: the organisation a user or client is put into (`field` names the input). */
  async requireAssignable(em: EntityManager, tenantId: string, id: string, field = 'organisationId'): Promise<Organisation> {
    const row = UUID.test(id) ? await this.organisations.find(tenantId, id, em) : null;
    if (!row) throw new OrganisationError(OrganisationErrorCode.Unknown, `${field}: no such organisation in this tenant.`, field);
    return this.assignable(row, field);
  }

  /** Names by id, for pages that show the organisation of each row. */
  names(tenantId: string, ids: Array<string | null>): Promise<Map<string, string>> {
    return this.organisations.names(tenantId, ids.filter((id): id is string => id !== null));
  }

  private assignable(row: Organisation, field: string): Organisation {
    if (row.state === 'offboarded') {
      throw new OrganisationError(OrganisationErrorCode.Offboarded, `${row.name} has been offboarded: restore it before anyone joins it.`, field);
    }
    return row;
  }

  private async insert(em: EntityManager, tenantId: string, name: string): Promise<Organisation> {
    return this.organisations.insert(em, { tenantId, name, nameNormalized: normalizedName(name) }).catch(rethrowTaken(name));
  }

  private async found(tenantId: string, id: string): Promise<Organisation> {
    const row = UUID.test(id) ? await this.organisations.find(tenantId, id) : null;
    if (!row) throw notFound();
    return row;
  }

  private async locked(em: EntityManager, tenantId: string, id: string): Promise<Organisation> {
    const row = UUID.test(id) ? await this.organisations.findForUpdate(em, tenantId, id) : null;
    if (!row) throw notFound();
    return row;
  }

  private record(em: EntityManager, tenantId: string, actor: Actor, action: string, id: string, details: Record<string, unknown>) {
    return this.audit.record(em, { tenantId, actor, action, targetType: 'organisation', targetId: id, details });
  }
}

function nameTaken(name: string): OrganisationError {
  return new OrganisationError(OrganisationErrorCode.NameTaken, `name: an organisation named "${name}" already exists (names are compared in any case).`, 'name');
}

function rethrowTaken(name: string) {
  return (error: unknown): never => {
    if (uniqueViolation(error) === 'organisations_tenant_name_key') throw nameTaken(name);
    throw error;
  };
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { likeEscape } from './audit.repository.js';

/**
 * The ids behind a name typed into an audit filter ("Warehouse sync", "ada"): people by display
 * name or username, clients by name, and for targets APIs (name or identifier) and documentation
 * sections (title or slug). Each table is read by its tenant and name, never the log itself, so a
 * name costs what an id costs once the ids are known. Queries are constants, never input.
 */
const ACTOR_IDS = `
  SELECT id::text AS id, display_name AS name FROM users
   WHERE tenant_id = $1 AND (display_name ILIKE $2 OR username ILIKE $2)
  UNION ALL
  SELECT client_id::text, display_name FROM api_clients WHERE tenant_id = $1 AND display_name ILIKE $2`;

const TARGET_IDS = `${ACTOR_IDS}
  UNION ALL
  SELECT id::text, display_name FROM apis WHERE tenant_id = $1 AND (display_name ILIKE $2 OR identifier ILIKE $2)
  UNION ALL
  SELECT id::text, title FROM doc_sections WHERE tenant_id = $1 AND (title ILIKE $2 OR slug ILIKE $2)`;

@Injectable()
export class AuditLookupRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Up to `limit` ids of the tenant's objects whose name contains `text` (case-insensitive), exact names first. */
  async idsNamed(tenantId: string, kind: 'actor' | 'target', text: string, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM (${kind === 'actor' ? ACTOR_IDS : TARGET_IDS}) named
        ORDER BY lower(name) = lower($3) DESC, name, id LIMIT $4`,
      [tenantId, `%${likeEscape(text)}%`, text, limit],
    );
    return [...new Set(rows.map((row) => row.id))];
  }
}

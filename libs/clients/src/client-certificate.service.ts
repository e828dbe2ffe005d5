import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { announceChange, uniqueViolation } from '@gatehouse/database';
import { parseCertificate } from './certificate-parser.js';
import { ClientCertificate } from './client-certificate.entity.js';
import { ClientError, ClientErrorCode } from './client.errors.js';
import { ClientRepository } from './client.repository.js';
import { ClientService } from './client.service.js';
import type { ApiClient } from './api-client.entity.js';
import { CredentialPolicyService } from './policy/credential-policy.service.js';

export interface AddCertificateInput {
  certificate: string;
  displayName?: string;
}

export interface CertificateView {
  keyId: string;
  displayName: string;
  /** SHA-1 of the DER, upper-case hex, as Entra shows it. */
  thumbprint: string;
  x5t: string;
  x5tS256: string;
  subject: string;
  notBefore: string;
  notAfter: string;
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedFrom: string | null;
  /** When the worker disabled it as stale (token requests with it fail until it is enabled again); null: enabled. */
  disabledAt: string | null;
}

export function toCertificateView(row: ClientCertificate): CertificateView {
  return {
    keyId: row.keyId,
    displayName: row.displayName,
    thumbprint: row.thumbprint,
    x5t: row.x5t,
    x5tS256: row.x5tS256,
    subject: row.subject,
    notBefore: row.notBefore.toISOString(),
    notAfter: row.notAfter.toISOString(),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    lastUsedFrom: row.lastUsedFrom ?? null,
    disabledAt: row.disabledAt ? row.disabledAt.toISOString() : null,
  };
}

/**
 * Certificate credentials of API clients: register, list, remove. Each change audited and
 * announced, and allowed only past ClientService's one gate (an operator client is its owner's and
 * the Administrators' alone).
 */
@Injectable()
export class ClientCertificateService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clients: ClientRepository,
    private readonly clientService: ClientService,
    private readonly audit: AuditService,
    private readonly policy: CredentialPolicyService,
  ) {}

  async add(tenantId: string, actor: Actor, clientId: string, input: AddCertificateInput): Promise<CertificateView> {
    const parsed = parseCertificate(input.certificate);
    try {
      return await this.dataSource.transaction(async (tx) => {
        const client = await this.clientService.requireManageable(tenantId, actor, clientId, tx);
        const validity = { kind: 'certificate' as const, notBefore: parsed.notBefore, notAfter: parsed.notAfter };
        await this.policy.assertAllowed(tenantId, tx, validity, 'certificate');
        const repo = tx.getRepository(ClientCertificate);
        const row = await repo.save(
          repo.create({
            tenantId,
            apiClientId: client.id,
            keyId: randomUUID(),
            displayName: input.displayName ?? '',
            thumbprint: parsed.thumbprint,
            x5t: parsed.x5t,
            x5tS256: parsed.x5tS256,
            subject: parsed.subject,
            notBefore: parsed.notBefore,
            notAfter: parsed.notAfter,
            certificateDer: parsed.der,
          }),
        );
        const view = toCertificateView(row);
        await this.record(tx, tenantId, actor, 'client.certificate.added', client, {
          keyId: view.keyId,
          thumbprint: view.thumbprint,
          subject: view.subject,
          notAfter: view.notAfter,
        });
        await announceChange(tx, 'client', tenantId, client.clientId);
        return view;
      });
    } catch (error) {
      if (uniqueViolation(error) === 'client_certificates_client_thumbprint_key') {
        throw new ClientError(ClientErrorCode.CertificateTaken, 'This certificate is registered for the client already.');
      }
      throw error;
    }
  }

  async list(tenantId: string, clientId: string): Promise<CertificateView[]> {
    const client = await this.clients.findByClientId(tenantId, clientId);
    if (!client) throw new ClientError(ClientErrorCode.NotFound, 'No such client.');
    const rows = await this.dataSource
      .getRepository(ClientCertificate)
      .find({ where: { tenantId, apiClientId: client.id }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toCertificateView);
  }

  async remove(tenantId: string, actor: Actor, clientId: string, keyId: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const client = await this.clientService.requireManageable(tenantId, actor, clientId, tx);
      const repo = tx.getRepository(ClientCertificate);
      const row = isUUID(keyId) ? await repo.findOneBy({ apiClientId: client.id, keyId }) : null;
      if (!row) throw new ClientError(ClientErrorCode.CertificateNotFound, 'No such certificate.');
      await repo.delete({ id: row.id });
      await this.record(tx, tenantId, actor, 'client.certificate.removed', client, { keyId, thumbprint: row.thumbprint });
      await announceChange(tx, 'client', tenantId, client.clientId);
    });
  }

  private record(em: EntityManager, tenantId: string, actor: Actor, action: string, client: ApiClient, details: Record<string, unknown>) {
    return this.audit.record(em, { tenantId, actor, action, targetType: 'client', targetId: client.clientId, details });
  }
}

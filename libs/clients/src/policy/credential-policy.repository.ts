import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CredentialPolicyRow } from './credential-policy.entity.js';
import { type CredentialPolicy, DEFAULT_CREDENTIAL_POLICY } from './credential-policy.rules.js';

/** Reads and writes the one policy row of a tenant. */
@Injectable()
export class CredentialPolicyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The tenant's policy, or the defaults when it never set one; `lock` holds the row until the transaction ends. */
  async find(tenantId: string, em?: EntityManager, lock = false): Promise<CredentialPolicy> {
    const query = (em ?? this.dataSource.manager)
      .getRepository(CredentialPolicyRow)
      .createQueryBuilder('p')
      .where('p.tenant_id = :tenantId', { tenantId });
    if (lock) query.setLock('pessimistic_write');
    const row = await query.getOne();
    return row ? fromRow(row) : { ...DEFAULT_CREDENTIAL_POLICY, allowedCredentialKinds: [...DEFAULT_CREDENTIAL_POLICY.allowedCredentialKinds] };
  }

  async save(em: EntityManager, tenantId: string, policy: CredentialPolicy): Promise<void> {
    await em.getRepository(CredentialPolicyRow).upsert(
      {
        tenantId,
        maxSecretLifetimeDays: policy.maxSecretLifetimeDays,
        maxCertificateLifetimeDays: policy.maxCertificateLifetimeDays,
        allowedCredentialKinds: policy.allowedCredentialKinds,
        effectiveFrom: policy.effectiveFrom ?? new Date(),
        staleCredentialDays: policy.staleCredentialDays,
        disableStaleCredentials: policy.disableStaleCredentials,
      },
      ['tenantId'],
    );
  }
}

function fromRow(row: CredentialPolicyRow): CredentialPolicy {
  return {
    maxSecretLifetimeDays: row.maxSecretLifetimeDays,
    maxCertificateLifetimeDays: row.maxCertificateLifetimeDays,
    allowedCredentialKinds: row.allowedCredentialKinds,
    effectiveFrom: row.effectiveFrom,
    staleCredentialDays: row.staleCredentialDays,
    disableStaleCredentials: row.disableStaleCredentials,
  };
}

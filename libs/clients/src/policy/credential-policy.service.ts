import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { CredentialPolicyError, CredentialPolicyErrorCode } from './credential-policy.errors.js';
import { type CredentialPolicyInput, type CredentialPolicyView, policyFromInput, toCredentialPolicyView } from './credential-policy.input.js';
import { CredentialPolicyRepository } from './credential-policy.repository.js';
import { type CredentialPolicy, type PolicyBreach, type PolicyCredential, newCredentialBreach, outsidePolicy } from './credential-policy.rules.js';
import { type OutsidePolicyRow, PolicyBreachRepository } from './policy-breach.repository.js';

/** A live credential the policy flags, and why. */
export interface FlaggedCredential extends OutsidePolicyRow {
  breach: PolicyBreach;
}

export const CREDENTIAL_POLICY_UPDATED = 'tenant.credential_policy.updated';

/**
 * The tenant's credential policy (DESIGN §12): read, replaced (audited in the same transaction),
 * and asked before a credential is created. The admin API, the console and every path that mints a
 * credential (REST, console, CLI, handover, bootstrap) go through here.
 */
@Injectable()
export class CredentialPolicyService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly policies: CredentialPolicyRepository,
    private readonly breaches: PolicyBreachRepository,
    private readonly audit: AuditService,
  ) {}

  /** The tenant's live credentials outside its policy (older than it: flagged, never broken), up to `limit`. */
  async flagged(tenantId: string, limit = 200): Promise<FlaggedCredential[]> {
    const policy = await this.policies.find(tenantId);
    const rows = await this.breaches.list(tenantId, limit);
    return rows.flatMap((row) => {
      const breach = outsidePolicy(asPolicyCredential(row), policy);
      return breach ? [{ ...row, breach }] : [];
    });
  }

  /** The policy in force for the tenant (the defaults when none was set). */
  policyOf(tenantId: string, em?: EntityManager): Promise<CredentialPolicy> {
    return this.policies.find(tenantId, em);
  }

  async get(tenantId: string): Promise<CredentialPolicyView> {
    return toCredentialPolicyView(await this.policies.find(tenantId));
  }

  /** Replaces the policy; a bad field is refused (naming it) before anything is written. */
  update(tenantId: string, actor: Actor, input: CredentialPolicyInput): Promise<CredentialPolicyView> {
    const next = policyFromInput(input);
    return this.dataSource.transaction(async (em) => {
      const before = toCredentialPolicyView(await this.policies.find(tenantId, em, true));
      await this.policies.save(em, tenantId, next);
      const after = toCredentialPolicyView(next);
      await this.audit.record(em, {
        tenantId,
        actor,
        action: CREDENTIAL_POLICY_UPDATED,
        targetType: 'tenant',
        targetId: tenantId,
        details: { before, after },
      });
      return after;
    });
  }

  /**
   * Refuses a credential about to be created that the policy in force forbids (`field`: the request
   * field the problem names); returns the policy read, for defaults that depend on it.
   */
  async assertAllowed(tenantId: string, em: EntityManager, credential: PolicyCredential, field: string | null): Promise<CredentialPolicy> {
    const policy = await this.policies.find(tenantId, em);
    refuseOutsidePolicy(credential, policy, field);
    return policy;
  }
}

/** Throws the 400 problem of a new credential the policy forbids (naming the rule, and `field` for a lifetime). */
export function refuseOutsidePolicy(credential: PolicyCredential, policy: CredentialPolicy, field: string | null): void {
  const breach = newCredentialBreach(credential, policy);
  if (!breach) return;
  const named = breach.rule === 'allowedCredentialKinds' ? null : field;
  throw new CredentialPolicyError(CredentialPolicyErrorCode.Outside, breach.message, named, breach.rule);
}

function asPolicyCredential(row: OutsidePolicyRow): PolicyCredential {
  if (row.kind === 'secret') return { kind: 'secret', createdAt: row.createdAt, expiresAt: row.expiresAt ?? row.createdAt };
  if (row.kind === 'certificate') return { kind: 'certificate', notBefore: row.notBefore ?? row.createdAt, notAfter: row.notAfter ?? row.createdAt };
  return { kind: 'federated' };
}

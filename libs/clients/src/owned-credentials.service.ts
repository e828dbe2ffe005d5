import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { announceChange } from '@gatehouse/database';
import { type ForeignClient, OwnedCredentialsRepository, type TakenCredential } from './owned-credentials.repository.js';

/** A client in someone's name that they did not create, and what of it was taken away. */
export interface RevokedClientCredentials extends ForeignClient {
  secretsRevoked: number;
  certificatesRemoved: number;
  federatedCredentialsRemoved: number;
}

/**
 * The credentials of clients made in a person's name by someone else. Whoever made such a client
 * may hold its secret or its certificate's key, or run the workload its federated credential names; when the person is given a first role the client
 * would act with their admin permissions, so those credentials go (SECURITY 55). The person, as
 * owner, mints new ones once they have signed in.
 */
@Injectable()
export class OwnedCredentialsService {
  constructor(
    private readonly repository: OwnedCredentialsRepository,
    private readonly audit: AuditService,
  ) {}

  /** The clients `ownerUserId` owns but did not create, row-locked in the caller's transaction. */
  foreignClients(em: EntityManager, tenantId: string, ownerUserId: string): Promise<ForeignClient[]> {
    return this.repository.foreignClients(em, tenantId, ownerUserId);
  }

  /** Inside the caller's transaction: revokes their secrets, removes their certificates and federated credentials; audited, announced. */
  async revoke(em: EntityManager, tenantId: string, actor: Actor, clients: ForeignClient[], reason: string): Promise<RevokedClientCredentials[]> {
    if (!clients.length) return [];
    const ids = clients.map((client) => client.id);
    const secrets = await this.repository.revokeSecrets(em, ids);
    const certificates = await this.repository.removeCertificates(em, ids);
    const federated = await this.repository.removeFederatedCredentials(em, ids);
    const byId = new Map(clients.map((client) => [client.id, client]));
    const record = (action: string, taken: TakenCredential, label: string) =>
      this.audit.record(em, {
        tenantId,
        actor,
        action,
        targetType: 'client',
        targetId: byId.get(taken.apiClientId)!.clientId,
        details: { keyId: taken.keyId, [label]: taken.label, reason },
      });
    for (const secret of secrets) await record('client.secret.revoked', secret, 'hint');
    for (const certificate of certificates) await record('client.certificate.removed', certificate, 'thumbprint');
    for (const credential of federated) await record('client.federated_credential.removed', credential, 'issuerAndSubject');
    for (const client of clients) await announceChange(em, 'client', tenantId, client.clientId);
    const count = (taken: TakenCredential[], id: string) => taken.filter((t) => t.apiClientId === id).length;
    return clients.map((client) => ({
      ...client,
      secretsRevoked: count(secrets, client.id),
      certificatesRemoved: count(certificates, client.id),
      federatedCredentialsRemoved: count(federated, client.id),
    }));
  }
}

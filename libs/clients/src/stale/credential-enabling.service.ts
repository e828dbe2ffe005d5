import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { DataSource, type EntityManager, type EntityTarget } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { announceChange } from '@gatehouse/database';
import { ClientCertificate } from '../client-certificate.entity.js';
import { type CertificateView, toCertificateView } from '../client-certificate.service.js';
import { ClientSecret } from '../client-secret.entity.js';
import { ClientError, ClientErrorCode } from '../client.errors.js';
import { ClientService } from '../client.service.js';
import { type SecretView, toSecretView } from '../client.view.js';
import { FederatedCredential } from '../federated-credential.entity.js';
import { FederatedCredentialError, FederatedCredentialErrorCode } from '../federated-credential.errors.js';
import { type FederatedCredentialView, toFederatedCredentialView } from '../federated-credential.view.js';
import type { CredentialKind } from '../policy/credential-policy.rules.js';

/** What every credential row has that enabling touches. */
interface Disableable {
  id: string;
  disabledAt: Date | null;
  enabledAt: Date | null;
  staleReportedAt: Date | null;
}

interface KindSpec<T extends Disableable, V> {
  kind: CredentialKind;
  entity: EntityTarget<T>;
  /** The column the path names it by: a secret's or certificate's key id, a federated credential's id. */
  by: 'keyId' | 'id';
  view: (row: T) => V;
  notFound: () => Error;
}

const SECRET: KindSpec<ClientSecret, SecretView> = {
  kind: 'secret',
  entity: ClientSecret,
  by: 'keyId',
  view: toSecretView,
  notFound: () => new ClientError(ClientErrorCode.SecretNotFound, 'No such secret.'),
};

const CERTIFICATE: KindSpec<ClientCertificate, CertificateView> = {
  kind: 'certificate',
  entity: ClientCertificate,
  by: 'keyId',
  view: toCertificateView,
  notFound: () => new ClientError(ClientErrorCode.CertificateNotFound, 'No such certificate.'),
};

const FEDERATED: KindSpec<FederatedCredential, FederatedCredentialView> = {
  kind: 'federated',
  entity: FederatedCredential,
  by: 'id',
  view: toFederatedCredentialView,
  notFound: () => new FederatedCredentialError(FederatedCredentialErrorCode.NotFound, 'No such federated credential.'),
};

/**
 * Undoes the stale-credential job's disabling (§12, `disableStaleCredentials`): the credential
 * authenticates again at once (the client's change is announced, so every identity replica drops
 * its cached credentials at commit), audited as `client.credential.enabled`. Its stale period counts
 * afresh from now (`enabled_at`), so the next run does not disable it again; its last use stays
 * what it was. Enabling one that is not disabled changes nothing. Past ClientService's one gate:
 * an operator client's credentials are its owner's and the Administrators' alone.
 */
@Injectable()
export class CredentialEnablingService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clients: ClientService,
    private readonly audit: AuditService,
  ) {}

  enableSecret(tenantId: string, actor: Actor, clientId: string, keyId: string): Promise<SecretView> {
    return this.enable(SECRET, tenantId, actor, clientId, keyId);
  }

  enableCertificate(tenantId: string, actor: Actor, clientId: string, keyId: string): Promise<CertificateView> {
    return this.enable(CERTIFICATE, tenantId, actor, clientId, keyId);
  }

  enableFederated(tenantId: string, actor: Actor, clientId: string, id: string): Promise<FederatedCredentialView> {
    return this.enable(FEDERATED, tenantId, actor, clientId, id);
  }

  private enable<T extends Disableable, V>(spec: KindSpec<T, V>, tenantId: string, actor: Actor, clientId: string, key: string): Promise<V> {
    return this.dataSource.transaction(async (tx) => {
      const client = await this.clients.requireManageable(tenantId, actor, clientId, tx);
      const row = await this.find(tx, spec, client.id, key);
      if (!row) throw spec.notFound();
      if (row.disabledAt === null) return spec.view(row);
      const disabledAt = row.disabledAt;
      Object.assign(row, { disabledAt: null, enabledAt: new Date(), staleReportedAt: null });
      const saved = await tx.getRepository(spec.entity).save(row);
      await this.audit.record(tx, {
        tenantId,
        actor,
        action: 'client.credential.enabled',
        targetType: 'client',
        targetId: client.clientId,
        details: { kind: spec.kind, keyId: key, disabledAt: disabledAt.toISOString() },
      });
      await announceChange(tx, 'client', tenantId, client.clientId);
      return spec.view(saved);
    });
  }

  private find<T extends Disableable>(tx: EntityManager, spec: KindSpec<T, unknown>, apiClientId: string, key: string): Promise<T | null> {
    if (!isUUID(key)) return Promise.resolve(null);
    return tx.getRepository(spec.entity).findOne({
      where: { apiClientId, [spec.by]: key } as never,
      lock: { mode: 'pessimistic_write' },
    });
  }
}

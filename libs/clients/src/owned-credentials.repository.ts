import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A client in someone's name that they did not create. */
export interface ForeignClient {
  id: string;
  clientId: string;
  displayName: string;
}

/** A credential taken away: its client's object id and what names it. */
export interface TakenCredential {
  apiClientId: string;
  keyId: string;
  /** The secret's hint, the certificate's thumbprint, or the federated credential's issuer and subject. */
  label: string;
}

/** Set-based queries over the credentials of the clients a person owns but did not create. */
@Injectable()
export class OwnedCredentialsRepository {
  /** The clients `ownerUserId` owns and did not create (or whose creator is unknown), row-locked. */
  foreignClients(em: EntityManager, tenantId: string, ownerUserId: string): Promise<ForeignClient[]> {
    return em.query(
      `SELECT id, client_id AS "clientId", display_name AS "displayName" FROM api_clients
        WHERE tenant_id = $1 AND owner_user_id = $2 AND created_by_user_id IS DISTINCT FROM $2
        ORDER BY created_at, id FOR UPDATE`,
      [tenantId, ownerUserId],
    );
  }

  /** Revokes every secret of these clients that is not revoked yet. */
  revokeSecrets(em: EntityManager, apiClientIds: string[]): Promise<TakenCredential[]> {
    return em.query(
      `WITH r AS (UPDATE client_secrets SET revoked_at = now()
                   WHERE api_client_id = ANY($1::uuid[]) AND revoked_at IS NULL
                   RETURNING api_client_id, key_id, hint)
       SELECT api_client_id AS "apiClientId", key_id AS "keyId", hint AS label FROM r`,
      [apiClientIds],
    );
  }

  /** Removes every certificate of these clients. */
  removeCertificates(em: EntityManager, apiClientIds: string[]): Promise<TakenCredential[]> {
    return em.query(
      `WITH d AS (DELETE FROM client_certificates WHERE api_client_id = ANY($1::uuid[])
                   RETURNING api_client_id, key_id, thumbprint)
       SELECT api_client_id AS "apiClientId", key_id AS "keyId", thumbprint AS label FROM d`,
      [apiClientIds],
    );
  }

  /** Removes every federated credential of these clients (a workload of whoever made them could still present one). */
  removeFederatedCredentials(em: EntityManager, apiClientIds: string[]): Promise<TakenCredential[]> {
    return em.query(
      `WITH d AS (DELETE FROM client_federated_credentials WHERE api_client_id = ANY($1::uuid[])
                   RETURNING api_client_id, id, issuer, coalesce(subject, claims_expression) AS matched)
       SELECT api_client_id AS "apiClientId", id AS "keyId", issuer || ' ' || matched AS label FROM d`,
      [apiClientIds],
    );
  }
}

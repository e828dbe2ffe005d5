import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ApiService } from '@gatehouse/apis';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { SigningKeyService } from '@gatehouse/tokens';
import { createIdentityApp } from '../../apps/identity/src/identity.app.js';
import { type ConsoleApp, type StaffMember, startConsoleApp } from './console.js';
import { LogCapture } from './log-capture.js';

/**
 * The console app with an identity app on the same database (so a secret shown in the console
 * can be tried at the token endpoint), every log line captured, an API `api://orders` with two
 * scopes, and a contact person, an IT department member and an auditor.
 */
export class CatalogConsole {
  readonly logs = new LogCapture();
  app: ConsoleApp;
  identity: INestApplication;
  ordersApi: { id: string; identifier: string };
  carla: StaffMember;
  ivan: StaffMember;
  audra: StaffMember;

  async start(): Promise<this> {
    this.app = await startConsoleApp({ logs: this.logs, config: { logLevel: 'debug' } });
    const { admin, db, staff, tenantId } = this.app;
    await db.transaction((em) => admin.get(SigningKeyService).ensureActiveKey(em, tenantId, 'RS256'));
    this.identity = await createIdentityApp({ config: this.app.config, logDestination: this.logs });
    await this.identity.init();
    const apis = admin.get(ApiService);
    this.ordersApi = await apis.create(tenantId, SYSTEM_ACTOR, {
      identifier: 'api://orders',
      displayName: 'Orders API',
    });
    await apis.addScope(tenantId, SYSTEM_ACTOR, this.ordersApi.id, {
      value: 'Orders.Read',
      description: 'Read orders',
    });
    await apis.addScope(tenantId, SYSTEM_ACTOR, this.ordersApi.id, { value: 'Orders.Write' });
    this.carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
    this.ivan = await staff.staff(tenantId, ['ITDepartment'], { username: 'ivan' });
    this.audra = await staff.staff(tenantId, ['Auditor'], { username: 'audra' });
    return this;
  }

  async stop(): Promise<void> {
    await this.identity?.close();
    await this.app?.close();
  }

  /** Makes the person's last second factor six minutes old: the next sensitive action asks again. */
  ageSecondFactor(userId: string) {
    return this.app.db.query(
      `UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1 AND kind = 'console'`,
      [userId],
    );
  }

  newClient(displayName: string, contactEmail = 'ops@partner.example') {
    return this.app.admin.get(ClientService).create(this.app.tenantId, SYSTEM_ACTOR, { displayName, contactEmail });
  }

  /** The audit events of one action on one target, with who acted. */
  events(action: string, target: string) {
    return this.app.db.query(
      `SELECT actor_type, actor_id, actor_client_id, details FROM audit_events WHERE action = $1 AND target_id = $2`,
      [action, target],
    );
  }

  /** A token request with a client secret, for the orders API. */
  tokenRequest(clientId: string, secret: string) {
    return request(this.identity.getHttpServer())
      .post(`/${this.app.tenantId}/oauth2/v2.0/token`)
      .type('form')
      .send({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
        scope: `${this.ordersApi.identifier}/.default`,
      });
  }
}

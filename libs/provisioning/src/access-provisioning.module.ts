import { Module } from '@nestjs/common';
import { AccountsModule } from '@gatehouse/accounts';
import { AuditModule } from '@gatehouse/audit';
import { ClientsModule } from '@gatehouse/clients';
import { HandoversModule } from '@gatehouse/handovers';
import { InvitationsModule } from '@gatehouse/invitations';
import { MailModule } from '@gatehouse/mail';
import { OrganisationsModule } from '@gatehouse/organisations';
import { RequestsModule } from '@gatehouse/requests';
import { TenantsModule } from '@gatehouse/tenants';
import { AccessDecisionService } from './access-decision.service.js';
import { CredentialDeliveryService } from './credential-delivery.service.js';

/**
 * The access-request process across contexts: deciding requests, the first handover, the reveal,
 * fulfilment. Every app that assigns scopes, completes activations or reveals handovers imports
 * it, so that those steps carry their consequences (it registers with clients and accounts).
 */
@Module({
  imports: [
    AuditModule,
    MailModule,
    TenantsModule,
    AccountsModule,
    ClientsModule,
    InvitationsModule,
    RequestsModule,
    HandoversModule,
    OrganisationsModule,
  ],
  providers: [AccessDecisionService, CredentialDeliveryService],
  exports: [AccessDecisionService, CredentialDeliveryService, RequestsModule, HandoversModule],
})
export class AccessProvisioningModule {}

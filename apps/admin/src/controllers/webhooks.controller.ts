import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Page } from '@gatehouse/database';
import { type WebhookDeliveryView, WebhookService, type WebhookView, type WebhookWithSecret } from '@gatehouse/events';
import { AdminController, ApiJsonBody, ApiProblems } from '../auth/admin-controller.js';
import { type AdminPrincipal, Principal } from '../auth/principal.js';
import { RequirePermission } from '../auth/require-permission.js';
import { PageQueryDto } from '../dto/page.dto.js';
import {
  CreateWebhookDto,
  UpdateWebhookDto,
  WebhookDeliveryPage,
  WebhookDeliveryResponse,
  WebhookPage,
  WebhookResponse,
  WebhookWithSecretResponse,
} from '../dto/webhooks.dto.js';

@AdminController(
  'webhooks',
  'webhooks',
  'Signed webhooks (Standard Webhooks): audit events sent to an endpoint as they happen, retried for 3 days, in order per webhook.',
)
export class WebhooksController {
  constructor(private readonly webhooks: WebhookService) {}

  @Post()
  @ApiOperation({ summary: 'Create a webhook; the answer holds its signing secret, once' })
  @ApiJsonBody(CreateWebhookDto, { url: 'https://hooks.example.com/gatehouse', events: ['client.secret.*', 'client.credential.expiring'], description: 'Secrets vault sync' })
  @RequirePermission('Tenant.Manage')
  @ApiCreatedResponse({ type: WebhookWithSecretResponse })
  create(@Principal() principal: AdminPrincipal, @Body() body: CreateWebhookDto): Promise<WebhookWithSecret> {
    return this.webhooks.create(principal.tenantId, principal, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the tenant\'s webhooks, newest first' })
  @RequirePermission('Tenant.Manage')
  @ApiOkResponse({ type: WebhookPage })
  list(@Principal() principal: AdminPrincipal, @Query() query: PageQueryDto): Promise<Page<WebhookView>> {
    return this.webhooks.list(principal.tenantId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a webhook (never its secret)' })
  @RequirePermission('Tenant.Manage')
  @ApiOkResponse({ type: WebhookResponse })
  get(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<WebhookView> {
    return this.webhooks.get(principal.tenantId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change a webhook\'s URL, events or description, or enable / disable it' })
  @ApiJsonBody(UpdateWebhookDto, { events: ['client.*'], enabled: true })
  @RequirePermission('Tenant.Manage')
  @ApiOkResponse({ type: WebhookResponse })
  update(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Body() body: UpdateWebhookDto): Promise<WebhookView> {
    return this.webhooks.update(principal.tenantId, principal, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook and its delivery log; nothing more is sent to it' })
  @RequirePermission('Tenant.Manage')
  @ApiNoContentResponse()
  remove(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<void> {
    return this.webhooks.remove(principal.tenantId, principal, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'Rotate the signing secret: the new one is in this answer only; the old one also signs for 24 hours' })
  @RequirePermission('Tenant.Manage')
  @ApiOkResponse({ type: WebhookWithSecretResponse })
  rotate(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<WebhookWithSecret> {
    return this.webhooks.rotateSecret(principal.tenantId, principal, id);
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a webhook.tested event to this webhook only' })
  @RequirePermission('Tenant.Manage')
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  test(@Principal() principal: AdminPrincipal, @Param('id') id: string): Promise<WebhookDeliveryView> {
    return this.webhooks.test(principal.tenantId, principal, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'The delivery log: each event with its attempts, last answer and next try, newest first' })
  @RequirePermission('Tenant.Manage')
  @ApiOkResponse({ type: WebhookDeliveryPage })
  deliveries(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Query() query: PageQueryDto): Promise<Page<WebhookDeliveryView>> {
    return this.webhooks.deliveries(principal.tenantId, id, query);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a delivered or given-up event again (same webhook-id), as a new delivery' })
  @ApiProblems(409)
  @RequirePermission('Tenant.Manage')
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse })
  redeliver(@Principal() principal: AdminPrincipal, @Param('id') id: string, @Param('deliveryId') deliveryId: string): Promise<WebhookDeliveryView> {
    return this.webhooks.redeliver(principal.tenantId, principal, id, deliveryId);
  }
}

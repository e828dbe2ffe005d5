import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { WebhookError, WebhookErrorCode, WebhookService } from '@gatehouse/events';
import { type FieldErrors, html } from '@gatehouse/views';
import { CreateWebhookDto } from '../../dto/webhooks.dto.js';
import { confirmation } from '../clients/client-credentials.pages.js';
import { field, formErrors, queryField } from '../frame/console-forms.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { type WebhookForm, newWebhookForm, webhookDetail, webhookList, webhookSecretPage } from './webhooks.pages.js';

/**
 * The Webhooks page group (`Tenant.Manage`, Administrators): the same `WebhookService` calls as
 * `/admin/v1/webhooks`. Creating a webhook and rotating its secret ask for a fresh second factor
 * (the guard's step-up); the secret appears once, on the answer to that POST.
 */
@Injectable()
export class WebhooksPresenter {
  constructor(private readonly webhooks: WebhookService) {}

  async list(who: ConsolePrincipal, req: Request): Promise<ConsoleView> {
    const page = await this.webhooks.list(who.tenantId, { cursor: queryField(req, 'cursor') || undefined });
    return {
      title: 'Webhooks',
      lead: 'Endpoints that hear about credential and account events as they happen, signed and retried for 3 days.',
      action: html`<a class="button" href="${who.base}/webhooks/new">New webhook</a>`,
      body: webhookList({ base: who.base, page }),
    };
  }

  showNew(who: ConsolePrincipal, values: WebhookForm = {}, errors: FieldErrors = {}, error?: string): ConsoleView {
    return {
      title: 'New webhook',
      breadcrumbs: [{ label: 'Webhooks', href: `${who.base}/webhooks` }, { label: 'New webhook' }],
      body: newWebhookForm({ action: `${who.base}/webhooks`, back: `${who.base}/webhooks`, csrf: who.csrfToken, values, errors, error }),
      status: Object.keys(errors).length || error ? 400 : 200,
    };
  }

  async create(who: ConsolePrincipal, req: Request): Promise<ConsoleResult> {
    const values: WebhookForm = { url: field(req, 'url').trim(), events: field(req, 'events'), description: field(req, 'description').trim() };
    const input = {
      url: values.url ?? '',
      events: (values.events ?? '').split(/[\s,]+/).filter(Boolean),
      description: values.description || undefined,
    };
    const errors = await formErrors(CreateWebhookDto, input);
    if (Object.keys(errors).length) return this.showNew(who, values, errors);
    try {
      const webhook = await this.webhooks.create(who.tenantId, who, input);
      return this.secretShown(who, webhook, false);
    } catch (error) {
      if (!(error instanceof WebhookError) || ![WebhookErrorCode.InvalidUrl, WebhookErrorCode.UnknownEvents].includes(error.code)) throw error;
      const fieldName = error.code === WebhookErrorCode.InvalidUrl ? 'url' : 'events';
      return this.showNew(who, values, { [fieldName]: error.message });
    }
  }

  async detail(who: ConsolePrincipal, id: string, req: Request): Promise<ConsoleView> {
    const webhook = await this.webhooks.get(who.tenantId, id);
    const deliveries = await this.webhooks.deliveries(who.tenantId, id, { cursor: queryField(req, 'cursor') || undefined });
    return {
      title: webhook.description ?? 'Webhook',
      breadcrumbs: [{ label: 'Webhooks', href: `${who.base}/webhooks` }, { label: webhook.description ?? webhook.url }],
      body: webhookDetail({ base: who.base, csrf: who.csrfToken, webhook, deliveries }),
    };
  }

  async rotate(who: ConsolePrincipal, id: string): Promise<ConsoleView> {
    return this.secretShown(who, await this.webhooks.rotateSecret(who.tenantId, who, id), true);
  }

  async test(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    await this.webhooks.test(who.tenantId, who, id);
    return { redirect: `${who.base}/webhooks/${id}`, flash: { kind: 'success', text: 'Test event queued: it appears in the delivery log within seconds.' } };
  }

  async redeliver(who: ConsolePrincipal, id: string, deliveryId: string): Promise<ConsoleResult> {
    const delivery = await this.webhooks.redeliver(who.tenantId, who, id, deliveryId);
    return { redirect: `${who.base}/webhooks/${id}`, flash: { kind: 'success', text: `The ${delivery.event} event is queued again, with the same webhook-id.` } };
  }

  async enable(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    await this.webhooks.update(who.tenantId, who, id, { enabled: true });
    return { redirect: `${who.base}/webhooks/${id}`, flash: { kind: 'success', text: 'Deliveries are on again. Redeliver from the log what the endpoint missed.' } };
  }

  async confirmDelete(who: ConsolePrincipal, id: string): Promise<ConsoleView> {
    const webhook = await this.webhooks.get(who.tenantId, id);
    const path = `${who.base}/webhooks/${id}`;
    return {
      title: 'Delete the webhook?',
      breadcrumbs: [{ label: 'Webhooks', href: `${who.base}/webhooks` }, { label: webhook.description ?? webhook.url, href: path }, { label: 'Delete' }],
      body: confirmation({
        action: `${path}/delete`,
        back: path,
        csrf: who.csrfToken,
        object: html`Delete the webhook to <code>${webhook.url}</code>${webhook.description ? html` (${webhook.description})` : ''}.`,
        effect: 'Nothing more is sent to this endpoint, including events still waiting, and its delivery log is removed.',
        submit: 'Delete the webhook',
      }),
    };
  }

  async remove(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    const webhook = await this.webhooks.get(who.tenantId, id);
    await this.webhooks.remove(who.tenantId, who, id);
    return { redirect: `${who.base}/webhooks`, flash: { kind: 'success', text: `Webhook to ${webhook.url} deleted: nothing more is sent to it.` } };
  }

  private secretShown(who: ConsolePrincipal, webhook: Awaited<ReturnType<WebhookService['create']>>, rotated: boolean): ConsoleView {
    const back = `${who.base}/webhooks/${webhook.id}`;
    return {
      title: 'Copy the signing secret now',
      shownOnce: true,
      breadcrumbs: [{ label: 'Webhooks', href: `${who.base}/webhooks` }, { label: webhook.description ?? webhook.url, href: back }, { label: 'Signing secret' }],
      flash: [{ kind: 'success', text: rotated ? 'Secret rotated. Copy the new one now: it will not be shown again.' : 'Webhook created. Copy its signing secret now: it will not be shown again.' }],
      body: webhookSecretPage({ back, webhook, rotated }),
    };
  }
}

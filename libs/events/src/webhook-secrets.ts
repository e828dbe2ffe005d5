import { Inject, Injectable } from '@nestjs/common';
import { type AppConfig, APP_CONFIG } from '@gatehouse/config';
import { KeyEncryptor } from '@gatehouse/crypto';
import { OutboundError, type OutboundRules, checkDestination } from '@gatehouse/outbound';
import { WebhookError, WebhookErrorCode } from './webhook.errors.js';
import type { WebhookSubscription } from './webhook-subscription.entity.js';

/** Associated data binding a sealed secret to its subscription. */
const context = (id: string) => `webhook:${id}`;

/**
 * What webhooks need of the platform: the outbound rules for their URLs (SECURITY check 61,
 * `WEBHOOK_PRIVATE_TARGETS`, `OUTBOUND_CA_FILE`) and the sealing of their signing secrets.
 */
@Injectable()
export class WebhookSecrets {
  readonly rules: OutboundRules;

  constructor(
    private readonly encryptor: KeyEncryptor,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.rules = { privateAllowed: config.webhookPrivateTargets, extraCa: config.outboundCa };
  }

  seal(id: string, secret: string): Buffer {
    return this.encryptor.encrypt(Buffer.from(secret, 'utf8'), context(id));
  }

  /** The secrets that sign a delivery now: the current one, and the previous one during a rotation. */
  signingSecrets(row: Pick<WebhookSubscription, 'id' | 'secretSealed' | 'previousSecretSealed' | 'previousSecretUntil'>, now = new Date()): string[] {
    const open = (sealed: Buffer) => this.encryptor.decrypt(sealed, context(row.id)).toString('utf8');
    const secrets = [open(row.secretSealed)];
    if (row.previousSecretSealed && row.previousSecretUntil && row.previousSecretUntil > now) secrets.push(open(row.previousSecretSealed));
    return secrets;
  }

  /** The URL as configured, checked by the outbound rules now (its host resolved); a broken rule is a 400 naming it. */
  async checkUrl(url: string): Promise<string> {
    try {
      await checkDestination(url, this.rules);
      return url;
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      const message = `url: ${error.rule}`;
      throw new WebhookError(WebhookErrorCode.InvalidUrl, `The webhook URL was refused: ${error.rule}.`, [{ field: 'url', message }]);
    }
  }
}

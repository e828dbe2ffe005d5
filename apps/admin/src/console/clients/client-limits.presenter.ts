import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ClientError, ClientErrorCode, ClientLimitsService } from '@gatehouse/clients';
import { UpdateClientDto } from '../../dto/client-limits.dto.js';
import { field, parseInput } from '../frame/console-forms.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult } from '../frame/console-responder.js';
import { ClientDetail } from './client-detail.js';
import { wholeNumber } from './client-credentials.presenter.js';
import type { LimitsForm } from './client-limits.pages.js';

const LABELS: Record<string, string> = { allowedSourceRanges: 'Allowed source ranges', tokensPerHour: 'Tokens per hour' };

/** The service's message with the field named as the form labels it. */
function labelled(field: string, message: string): string {
  const label = LABELS[field];
  return label && message.startsWith(field) ? label + message.slice(field.length) : message;
}

/**
 * A client's network restriction and token quota in the console (IT, Scopes.Assign): the use case
 * of `PATCH /admin/v1/clients/{clientId}`. A refusal comes back on the client page with the form
 * as typed and the message beside the field.
 */
@Injectable()
export class ClientLimitsPresenter {
  constructor(
    private readonly limits: ClientLimitsService,
    private readonly detail: ClientDetail,
  ) {}

  async save(who: ConsolePrincipal, clientId: string, req: Request): Promise<ConsoleResult> {
    const values: LimitsForm = { allowedSourceRanges: field(req, 'allowedSourceRanges'), tokensPerHour: field(req, 'tokensPerHour').trim() };
    const ranges = values.allowedSourceRanges.split(/[\s,]+/).filter((line) => line.length > 0);
    const input = { allowedSourceRanges: ranges.length ? ranges : null, tokensPerHour: wholeNumber(values.tokensPerHour) ?? null };
    const { errors } = await parseInput(UpdateClientDto, input, LABELS);
    if (Object.keys(errors).length) return this.detail.show(who, clientId, { limits: { values, errors }, status: 400 });
    try {
      await this.limits.update(who.tenantId, who, clientId, input as UpdateClientDto);
    } catch (error) {
      if (error instanceof ClientError && error.code === ClientErrorCode.InvalidLimits && error.field) {
        return this.detail.show(who, clientId, { limits: { values, errors: { [error.field]: labelled(error.field, error.message) } }, status: 400 });
      }
      throw error;
    }
    const text = input.allowedSourceRanges || input.tokensPerHour
      ? 'Limits saved: they apply from the next token request.'
      : 'Limits removed: the client may get tokens from anywhere, without a quota.';
    return { redirect: `${who.base}/clients/${clientId}`, flash: { kind: 'success', text } };
  }
}

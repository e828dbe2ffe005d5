import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError, ApiErrorCode, ApiService } from '@gatehouse/apis';
import { InvalidCursorError } from '@gatehouse/database';
import { type FieldErrors, html } from '@gatehouse/views';
import { CreateApiDto, CreateScopeDto } from '../../dto/apis.dto.js';
import { field, formErrors } from '../frame/console-forms.js';
import { formView } from '../frame/console-form-view.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { type CreateApiForm, type ScopeForm, apiList, apiPage, createApiForm } from './apis.pages.js';

const IDENTIFIER_ERRORS = new Set([
  ApiErrorCode.IdentifierInvalid,
  ApiErrorCode.IdentifierReserved,
  ApiErrorCode.IdentifierTaken,
]);
const SCOPE_ERRORS = new Set([ApiErrorCode.ScopeInvalid, ApiErrorCode.ScopeTaken]);

/**
 * APIs & scopes: the list and an API's page (Clients.Read, like `GET /apis`), creating APIs and
 * adding scopes (Apis.Manage) — ApiService's use cases with the person as the actor.
 */
@Injectable()
export class ApisPresenter {
  constructor(private readonly apis: ApiService) {}

  async list(who: ConsolePrincipal, raw: Record<string, unknown>): Promise<ConsoleView> {
    const cursor = typeof raw.cursor === 'string' ? raw.cursor.slice(0, 200) : undefined;
    const page = await this.apis.list(who.tenantId, { cursor }).catch((error: unknown) => {
      if (error instanceof InvalidCursorError) return this.apis.list(who.tenantId, {}); // a mangled link: from the start
      throw error;
    });
    const canManage = who.permissions.includes('Apis.Manage');
    return {
      title: 'APIs & scopes',
      lead: 'The APIs tokens are issued for, and the scopes clients may be granted on them.',
      action: canManage ? html`<a class="button" href="${who.base}/apis/new">New API</a>` : undefined,
      body: apiList({ base: who.base, apis: page.items, next: page.nextCursor, canManage }),
    };
  }

  showCreate(who: ConsolePrincipal, values: CreateApiForm = {}, errors: FieldErrors = {}): ConsoleView {
    return formView({
      title: 'New API',
      breadcrumbs: [{ label: 'APIs & scopes', href: `${who.base}/apis` }, { label: 'New API' }],
      body: createApiForm({ base: who.base, csrf: who.csrfToken, values, errors }),
      errors,
    });
  }

  async create(who: ConsolePrincipal, req: Request): Promise<ConsoleResult> {
    const values: CreateApiForm = {
      identifier: field(req, 'identifier').trim(),
      displayName: field(req, 'displayName').trim(),
      accessTokenVersion: field(req, 'accessTokenVersion'),
    };
    const version =
      values.accessTokenVersion === '1'
        ? 1
        : values.accessTokenVersion === '2' || !values.accessTokenVersion
          ? 2
          : values.accessTokenVersion;
    const input = { identifier: values.identifier, displayName: values.displayName, accessTokenVersion: version };
    const errors = await formErrors(CreateApiDto, input);
    if (Object.keys(errors).length) return this.showCreate(who, values, errors);
    try {
      const api = await this.apis.create(
        who.tenantId,
        who,
        input as { identifier: string; displayName: string; accessTokenVersion: 1 | 2 },
      );
      const text = `${api.displayName} created. Add its scopes; clients then request ${api.identifier}/.default.`;
      return { redirect: `${who.base}/apis/${api.id}`, flash: { kind: 'success', text } };
    } catch (error) {
      if (error instanceof ApiError && IDENTIFIER_ERRORS.has(error.code))
        return this.showCreate(who, values, { identifier: error.message });
      throw error;
    }
  }

  async show(
    who: ConsolePrincipal,
    id: string,
    values: ScopeForm = {},
    errors: FieldErrors = {},
  ): Promise<ConsoleView> {
    const api = await this.apis.get(who.tenantId, id);
    return formView({
      title: api.displayName,
      breadcrumbs: [{ label: 'APIs & scopes', href: `${who.base}/apis` }, { label: api.displayName }],
      body: apiPage({
        base: who.base,
        csrf: who.csrfToken,
        api,
        canManage: who.permissions.includes('Apis.Manage'),
        values,
        errors,
      }),
      errors,
    });
  }

  async addScope(who: ConsolePrincipal, id: string, req: Request): Promise<ConsoleResult> {
    const values: ScopeForm = { value: field(req, 'value').trim(), description: field(req, 'description').trim() };
    const input = { value: values.value, description: values.description || undefined };
    const errors = await formErrors(CreateScopeDto, input);
    if (Object.keys(errors).length) return this.show(who, id, values, errors);
    try {
      const scope = await this.apis.addScope(who.tenantId, who, id, {
        value: input.value!,
        description: input.description,
      });
      return {
        redirect: `${who.base}/apis/${id}`,
        flash: { kind: 'success', text: `Scope ${scope.value} added. Assign it to clients on their pages.` },
      };
    } catch (error) {
      if (error instanceof ApiError && SCOPE_ERRORS.has(error.code))
        return this.show(who, id, values, { value: error.message });
      throw error;
    }
  }
}

import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CredentialPolicyError, CredentialPolicyErrorCode, CredentialPolicyService } from '@gatehouse/clients';
import { type FieldErrors, html } from '@gatehouse/views';
import { PutCredentialPolicyDto } from '../../dto/credential-policy.dto.js';
import { wholeNumber } from '../clients/client-credentials.presenter.js';
import { field, fieldList, parseInput } from '../frame/console-forms.js';
import { formView } from '../frame/console-form-view.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { type PolicyForm, flaggedList, policyForm, policyFormValues, policyStatus } from './policy.pages.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The Credential policy page (Administrators, Tenant.Manage; saving asks for a fresh second
 * factor): the same use case as `PUT /admin/v1/credential-policy`. The list of flagged
 * credentials is a Clients.Read page of its own, which the Overview's count opens.
 */
@Injectable()
export class PolicyPresenter {
  constructor(private readonly policy: CredentialPolicyService) {}

  async show(who: ConsolePrincipal, values?: PolicyForm, errors: FieldErrors = {}, error?: string): Promise<ConsoleView> {
    const [current, flagged] = await Promise.all([this.policy.get(who.tenantId), this.policy.flagged(who.tenantId)]);
    const view = formView({
      title: 'Credential policy',
      breadcrumbs: [],
      body: html`${policyStatus(current, flagged.length, `${who.base}/clients/outside-policy`)}
      ${policyForm({ action: `${who.base}/credential-policy`, csrf: who.csrfToken, values: values ?? policyFormValues(current), errors, error })}`,
      errors,
      error,
    });
    return { ...view, lead: 'How long new secrets and certificates may live, and which kinds of credential may be added. New credentials outside it are refused; older ones keep working and are flagged.' };
  }

  async save(who: ConsolePrincipal, req: Request): Promise<ConsoleResult> {
    const values: PolicyForm = {
      maxSecretLifetimeDays: field(req, 'maxSecretLifetimeDays').trim(),
      maxCertificateLifetimeDays: field(req, 'maxCertificateLifetimeDays').trim(),
      allowedCredentialKinds: fieldList(req, 'allowedCredentialKinds'),
      effectiveFrom: field(req, 'effectiveFrom').trim(),
      staleCredentialDays: field(req, 'staleCredentialDays').trim(),
      disableStaleCredentials: fieldList(req, 'disableStaleCredentials').includes('yes'),
    };
    const input = {
      maxSecretLifetimeDays: wholeNumber(values.maxSecretLifetimeDays),
      maxCertificateLifetimeDays: wholeNumber(values.maxCertificateLifetimeDays) ?? null,
      allowedCredentialKinds: values.allowedCredentialKinds,
      effectiveFrom: values.effectiveFrom ? (DATE_ONLY.test(values.effectiveFrom) ? `${values.effectiveFrom}T00:00:00Z` : values.effectiveFrom) : undefined,
      staleCredentialDays: wholeNumber(values.staleCredentialDays),
      disableStaleCredentials: values.disableStaleCredentials,
    };
    const { errors } = await parseInput(PutCredentialPolicyDto, input, LABELS);
    if (Object.keys(errors).length) return this.show(who, values, errors);
    try {
      await this.policy.update(who.tenantId, who, input as PutCredentialPolicyDto);
    } catch (error) {
      if (error instanceof CredentialPolicyError && error.code === CredentialPolicyErrorCode.Invalid && error.field) {
        const label = LABELS[error.field];
        const message = label && error.message.startsWith(error.field) ? label + error.message.slice(error.field.length) : error.message;
        return this.show(who, values, { [error.field]: message });
      }
      throw error;
    }
    return { redirect: `${who.base}/credential-policy`, flash: { kind: 'success', text: 'Credential policy saved: new credentials are checked against it from its date on.' } };
  }

  async flagged(who: ConsolePrincipal): Promise<ConsoleView> {
    const rows = await this.policy.flagged(who.tenantId);
    return {
      title: 'Credentials outside the policy',
      breadcrumbs: [{ label: 'Clients', href: `${who.base}/clients` }, { label: 'Outside the policy' }],
      lead: 'Added before the credential policy, or before it changed: they keep working. Replace each with one the policy allows, then revoke it.',
      body: flaggedList(who.base, rows),
    };
  }
}

const LABELS: Record<string, string> = {
  maxSecretLifetimeDays: 'Longest secret lifetime',
  maxCertificateLifetimeDays: 'Longest certificate validity',
  allowedCredentialKinds: 'Kinds of credential',
  effectiveFrom: 'In effect from',
  staleCredentialDays: 'Stale after',
};

import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import {
  CredentialPolicyError,
  FederatedCredentialError,
  FederatedCredentialErrorCode,
  FederatedCredentialService,
} from '@gatehouse/clients';
import { type FieldErrors, html } from '@gatehouse/views';
import { field } from '../frame/console-forms.js';
import { formView } from '../frame/console-form-view.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { confirmation } from './client-credentials.pages.js';
import { ClientDetail } from './client-detail.js';
import { federatedCredentialForm } from './client-federation.pages.js';
import { type FederatedForm, credentialFromForm, formFieldOf, matcherOf, scenarioOf } from './federation-scenarios.js';

const FORM_FIELDS = ['name', 'description', 'audiences', 'organisation', 'repository', 'entity', 'value', 'issuer', 'namespace', 'serviceAccount', 'subject', 'expression'] as const;

/**
 * A client's federated credentials in the console: the scenario forms (GitHub Actions, Kubernetes,
 * any other issuer) that turn a platform's words into an issuer and subject, shown before they are
 * saved; adding asks for a fresh second factor (a way in), removing asks once. The use case is
 * `/admin/v1/clients/{id}/federated-credentials`'s, with the person as the actor.
 */
@Injectable()
export class ClientFederationPresenter {
  constructor(
    private readonly federated: FederatedCredentialService,
    private readonly detail: ClientDetail,
  ) {}

  async showNew(
    who: ConsolePrincipal,
    clientId: string,
    values: FederatedForm,
    errors: FieldErrors = {},
    extra: { made?: { subject?: string; expression?: string }; error?: string } = {},
  ): Promise<ConsoleView> {
    const { crumbs, path } = await this.detail.crumbs(who, clientId, 'Add federated credential');
    return formView({
      title: 'Add a federated credential',
      breadcrumbs: crumbs,
      body: federatedCredentialForm({ path, csrf: who.csrfToken, values, errors, ...extra }),
      errors,
      error: extra.error,
    });
  }

  showScenario(who: ConsolePrincipal, clientId: string, scenario: unknown): Promise<ConsoleView> {
    return this.showNew(who, clientId, { scenario: scenarioOf(scenario) });
  }

  /** The subject (or expression) the fields make, nothing saved. */
  async preview(who: ConsolePrincipal, clientId: string, req: Request): Promise<ConsoleView> {
    const values = formOf(req);
    const { subject, expression, errors } = matcherOf(values);
    const view = await this.showNew(who, clientId, values, errors, Object.keys(errors).length ? {} : { made: { subject, expression } });
    return { ...view, status: Object.keys(errors).length ? 400 : 200 };
  }

  /** Adds the credential (step-up checked by the guard); a refusal comes back beside its field. */
  async add(who: ConsolePrincipal, clientId: string, req: Request): Promise<ConsoleResult> {
    const values = formOf(req);
    const { input, errors } = credentialFromForm(values);
    if (!input) return this.showNew(who, clientId, values, errors);
    // What the platform's fields made; for any other issuer it is what was typed, shown beside its field.
    const made = values.scenario === 'other' ? undefined : { subject: input.subject, expression: input.claimsMatchingExpression?.value };
    try {
      const added = await this.federated.add(who.tenantId, who, clientId, input);
      const matches = added.subject ? `subject ${added.subject}` : `the expression ${added.claimsMatchingExpression!.value}`;
      return {
        redirect: `${who.base}/clients/${clientId}`,
        flash: { kind: 'success', text: `Federated credential ${added.name} added: tokens of ${added.issuer} with ${matches} now get tokens for this client.` },
      };
    } catch (error) {
      if (error instanceof CredentialPolicyError) return this.showNew(who, clientId, values, {}, { made, error: error.message });
      if (!(error instanceof FederatedCredentialError) || error.code === FederatedCredentialErrorCode.NotFound) throw error;
      if (error.code === FederatedCredentialErrorCode.TooMany) return this.showNew(who, clientId, values, {}, { made, error: error.message });
      const name = error.code === FederatedCredentialErrorCode.NameTaken ? 'name' : formFieldOf(values.scenario, error.field);
      return this.showNew(who, clientId, values, { [name]: error.message }, { made });
    }
  }

  async confirmRemove(who: ConsolePrincipal, clientId: string, id: string): Promise<ConsoleView> {
    const credential = (await this.federated.list(who.tenantId, clientId)).find((c) => c.id === id);
    if (!credential) throw new FederatedCredentialError(FederatedCredentialErrorCode.NotFound, 'No such federated credential.');
    const { crumbs, name, path } = await this.detail.crumbs(who, clientId, 'Remove federated credential');
    return {
      title: 'Remove the federated credential?',
      breadcrumbs: crumbs,
      body: confirmation({
        action: `${path}/federated-credentials/${id}/remove`,
        back: path,
        csrf: who.csrfToken,
        object: html`Remove the federated credential <strong>${credential.name}</strong> (issuer
          <code class="wrap">${credential.issuer}</code>) of ${name}.`,
        effect: 'Workloads presenting tokens of this issuer and subject will fail at the next token request.',
        submit: 'Remove the federated credential',
      }),
    };
  }

  async remove(who: ConsolePrincipal, clientId: string, id: string): Promise<ConsoleResult> {
    await this.federated.remove(who.tenantId, who, clientId, id);
    return {
      redirect: `${who.base}/clients/${clientId}`,
      flash: { kind: 'success', text: 'Federated credential removed: its tokens are refused from now on.' },
    };
  }
}

function formOf(req: Request): FederatedForm {
  const values: FederatedForm = { scenario: scenarioOf(field(req, 'scenario')) };
  for (const name of FORM_FIELDS) values[name] = field(req, name);
  return values;
}

import { Injectable } from '@nestjs/common';
import {
  ClientCertificateService,
  ClientError,
  ClientErrorCode,
  ClientService,
  CredentialEnablingService,
  CredentialPolicyService,
  FederatedCredentialError,
  FederatedCredentialErrorCode,
  FederatedCredentialService,
} from '@gatehouse/clients';
import { type SafeHtml, html } from '@gatehouse/views';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult } from '../frame/console-responder.js';
import { ClientDetail } from './client-detail.js';
import { type CredentialSegment, enableConfirmation } from './credential-enabling.pages.js';

/** A disabled credential as the confirmation names it. */
interface Named {
  disabledAt: string | null;
  object: (clientName: string) => SafeHtml;
}

/**
 * "Enable again" beside a credential the stale-credential job disabled: asked once, then the REST
 * twin's use case (`POST /admin/v1/clients/{clientId}/{secrets|certificates|federated-credentials}/{key}/enable`)
 * with the person as the actor.
 */
@Injectable()
export class CredentialEnablingPresenter {
  constructor(
    private readonly clients: ClientService,
    private readonly certificates: ClientCertificateService,
    private readonly federated: FederatedCredentialService,
    private readonly enabling: CredentialEnablingService,
    private readonly policies: CredentialPolicyService,
    private readonly detail: ClientDetail,
  ) {}

  async confirm(who: ConsolePrincipal, clientId: string, segment: CredentialSegment, key: string): Promise<ConsoleResult> {
    const credential = await this.find(who, clientId, segment, key);
    const { crumbs, name, path } = await this.detail.crumbs(who, clientId, 'Enable credential');
    if (!credential.disabledAt) return { redirect: path, flash: { kind: 'info', text: 'That credential is enabled already.' } };
    const policy = await this.policies.policyOf(who.tenantId);
    return {
      title: 'Enable the credential again?',
      breadcrumbs: crumbs,
      body: enableConfirmation({
        action: `${path}/${segment}/${key}/enable`,
        back: path,
        csrf: who.csrfToken,
        object: credential.object(name),
        disabledAt: credential.disabledAt,
        staleDays: policy.staleCredentialDays,
      }),
    };
  }

  async enable(who: ConsolePrincipal, clientId: string, segment: CredentialSegment, key: string): Promise<ConsoleResult> {
    if (segment === 'secrets') await this.enabling.enableSecret(who.tenantId, who, clientId, key);
    else if (segment === 'certificates') await this.enabling.enableCertificate(who.tenantId, who, clientId, key);
    else await this.enabling.enableFederated(who.tenantId, who, clientId, key);
    return {
      redirect: `${who.base}/clients/${clientId}`,
      flash: { kind: 'success', text: 'Credential enabled again: token requests with it work from now on.' },
    };
  }

  private async find(who: ConsolePrincipal, clientId: string, segment: CredentialSegment, key: string): Promise<Named> {
    if (segment === 'secrets') {
      const s = (await this.clients.listSecrets(who.tenantId, clientId)).find((x) => x.keyId === key);
      if (!s) throw new ClientError(ClientErrorCode.SecretNotFound, 'No such secret.');
      return { disabledAt: s.disabledAt, object: (name) => html`Enable the secret <strong>${s.displayName || 'without description'}</strong> (hint <code>${s.hint}…</code>) of ${name} again.` };
    }
    if (segment === 'certificates') {
      const c = (await this.certificates.list(who.tenantId, clientId)).find((x) => x.keyId === key);
      if (!c) throw new ClientError(ClientErrorCode.CertificateNotFound, 'No such certificate.');
      return { disabledAt: c.disabledAt, object: (name) => html`Enable the certificate <code>${c.thumbprint}</code> (${c.subject}) of ${name} again.` };
    }
    const f = (await this.federated.list(who.tenantId, clientId)).find((x) => x.id === key);
    if (!f) throw new FederatedCredentialError(FederatedCredentialErrorCode.NotFound, 'No such federated credential.');
    return { disabledAt: f.disabledAt, object: (name) => html`Enable the federated credential <strong>${f.name}</strong> (issuer <code class="wrap">${f.issuer}</code>) of ${name} again.` };
  }
}

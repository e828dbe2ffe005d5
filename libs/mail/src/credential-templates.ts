import { oneLine, page, type RenderedEmail, mailTime } from './templates.js';

/** Mails about API client credentials beyond secret expiry (which lives in templates.ts). */
export interface ClientMailSubject {
  clientDisplayName: string;
  clientId: string;
}

export interface AuthBurstMail extends ClientMailSubject {
  failures: number;
  windowMinutes: number;
  lastSource: string;
}

/** Many failed authentications with a client's id: someone has a wrong (or stolen and revoked) credential. */
export function clientAuthBurstEmail(input: AuthBurstMail): RenderedEmail {
  const lines = [
    `The token endpoint refused ${input.failures} authentications of the API client ${input.clientDisplayName} (${input.clientId}) within ${input.windowMinutes} minutes, the last from the address ${input.lastSource}.`,
    'Requests with a valid credential keep working. If a deployment of yours uses an old or revoked secret, update it; if you do not recognise the address, tell your contact person.',
  ];
  return {
    template: 'client-auth-burst',
    subject: oneLine(`Failed authentications of ${input.clientDisplayName}`),
    text: `${lines.join('\n\n')}\n`,
    html: page('Failed authentications', lines),
  };
}

export interface SecretLeakMail extends ClientMailSubject {
  secretHint: string;
  reportedUrl: string | null;
  revokedAt: Date;
}

/** A secret was reported public and has been revoked: a new one is needed. */
export function secretLeakedEmail(input: SecretLeakMail): RenderedEmail {
  const where = input.reportedUrl ? ` It was found at ${input.reportedUrl}.` : '';
  const lines = [
    `A client secret (starting with ${input.secretHint}) of the API client ${input.clientDisplayName} (${input.clientId}) was reported as publicly exposed and was revoked at ${mailTime(input.revokedAt)}.${where}`,
    'Requests with that secret now fail. Issue a new secret (or use a certificate), deploy it, and remove the exposed value from where it was found.',
  ];
  return {
    template: 'secret-leaked',
    subject: oneLine(`A client secret of ${input.clientDisplayName} was exposed and revoked`),
    text: `${lines.join('\n\n')}\n`,
    html: page('Client secret exposed and revoked', lines),
  };
}

export interface CertificateExpiryMail extends ClientMailSubject {
  thumbprint: string;
  displayName: string;
  expiresAt: Date;
}

export function certificateExpiryEmail(input: CertificateExpiryMail): RenderedEmail {
  const lines = [
    `The certificate "${input.displayName}" (thumbprint ${input.thumbprint}) of the API client ${input.clientDisplayName} (${input.clientId}) expires at ${mailTime(input.expiresAt)}.`,
    'Register a new certificate, deploy its private key, then remove the old one before that time to avoid an outage.',
  ];
  return {
    template: 'certificate-expiry',
    subject: oneLine(`Certificate of ${input.clientDisplayName} expires soon`),
    text: `${lines.join('\n\n')}\n`,
    html: page('Certificate expires soon', lines),
  };
}

export interface StaleCredentialMail extends ClientMailSubject {
  /** "client secret", "certificate", "federated credential". */
  kindLabel: string;
  /** What tells it apart: "starting with abc", "thumbprint …", "issuer … subject …". */
  identifying: string;
  days: number;
  lastUsedAt: Date | null;
  /** It was disabled as well (the tenant's `disableStaleCredentials`). */
  disabled: boolean;
}

/** A credential no token was issued with for the tenant's stale period: it may go (and may have been disabled). */
export function staleCredentialEmail(input: StaleCredentialMail): RenderedEmail {
  const lines = [
    `The ${input.kindLabel} (${input.identifying}) of the API client ${input.clientDisplayName} (${input.clientId}) was not used for ${input.days} days: ${input.lastUsedAt ? `its last token was issued at ${input.lastUsedAt.toISOString()}` : 'no token was ever issued with it'}.`,
    ...(input.disabled
      ? [
          "The credential policy disables credentials left unused that long, so it was disabled: token requests with it fail from now on. Nothing was deleted, and the client's other credentials keep working.",
          "If something still needs it, it can be enabled again: someone who manages the client's credentials presses Enable again beside it on the client's page in the console (or calls the admin API's enable operation for it); ask your contact person. If nothing needs it, remove it.",
        ]
      : [
          'If nothing uses it any more, remove it (unused credentials are a risk if they leak). If something still needs it, nothing changes for now; the console shows its last use under Credentials.',
        ]),
  ];
  const title = input.disabled ? 'Unused credential disabled' : 'Unused credential';
  return {
    template: 'credential-stale',
    subject: oneLine(input.disabled ? `Unused credential of ${input.clientDisplayName} disabled` : `Unused credential of ${input.clientDisplayName}`),
    text: `${lines.join('\n\n')}\n`,
    html: page(title, lines),
  };
}

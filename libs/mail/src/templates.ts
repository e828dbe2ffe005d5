/** A mail ready for the outbox: plain text and HTML of the same message. */
export interface RenderedEmail {
  template:
    | 'invitation'
    | 'activation'
    | 'password-reset'
    | 'password-changed'
    // password-reset-templates.ts:
    | 'password-reset-requested'
    | 'secret-expiry'
    // credential-templates.ts:
    | 'client-auth-burst'
    | 'secret-leaked'
    | 'certificate-expiry'
    // request-templates.ts:
    | 'access-request-confirm'
    | 'access-request-submitted'
    | 'access-request-approved'
    | 'access-request-rejected'
    | 'client-awaiting-scopes'
    | 'handover'
    | 'handover-sent'
    | 'handover-expired'
    // staff-templates.ts:
    | 'staff-invitation'
    // webhook-templates.ts:
    | 'webhook-trouble'
    // organisation-templates.ts:
    | 'organisation-offboarded'
    | 'organisation-restored';
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** `2026-12-01 14:00 UTC`: the one way pages and mails write a time, unambiguous for a reader anywhere. */
export function mailTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Subjects are one line whatever the data says. */
export function oneLine(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').slice(0, 200);
}

export function page(title: string, paragraphs: string[], link?: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>\n<p>${escapeHtml(link.href)}</p>` : '';
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n${button}\n</body></html>\n`;
}

/** Every link in a mail starts from PUBLIC_URL, never from a request's Host. */
export function linkFrom(publicUrl: string, path: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/${path}/${encodeURIComponent(token)}`;
}

export interface InvitationMail {
  displayName: string;
  sections: string[];
  link: string;
  expiresAt: Date;
}

export function invitationEmail(input: InvitationMail): RenderedEmail {
  const lines = [
    `Hello ${input.displayName},`,
    `You have been invited to the documentation sections: ${input.sections.join(', ')}.`,
    `Open the link below, log in and accept the invitation. It expires at ${mailTime(input.expiresAt)}.`,
  ];
  return {
    template: 'invitation',
    subject: 'You are invited to private documentation',
    text: `${lines.join('\n\n')}\n\n${input.link}\n`,
    html: page('Invitation', lines, { href: input.link, label: 'Open the invitation' }),
  };
}

export interface AccountLinkMail {
  displayName: string;
  username: string;
  link: string;
  expiresAt: Date;
}

export function activationEmail(input: AccountLinkMail): RenderedEmail {
  const lines = [
    `Hello ${input.displayName},`,
    `An account with the username ${input.username} has been set up for you.`,
    `Choose your password with the link below. It can be used once and expires at ${mailTime(input.expiresAt)}.`,
  ];
  return {
    template: 'activation',
    subject: 'Set up your account',
    text: `${lines.join('\n\n')}\n\n${input.link}\n`,
    html: page('Set up your account', lines, { href: input.link, label: 'Choose a password' }),
  };
}

export function passwordResetEmail(input: AccountLinkMail): RenderedEmail {
  const lines = [
    `Hello ${input.displayName},`,
    `The password of your account ${input.username} has been reset by an administrator; the old one no longer works.`,
    `Choose a new password with the link below. It can be used once and expires at ${mailTime(input.expiresAt)}.`,
  ];
  return {
    template: 'password-reset',
    subject: 'Choose a new password',
    text: `${lines.join('\n\n')}\n\n${input.link}\n`,
    html: page('Choose a new password', lines, { href: input.link, label: 'Choose a new password' }),
  };
}

export interface PasswordChangedMail {
  displayName: string;
  username: string;
  changedAt: Date;
  /** The "Forgot your password?" page, where the owner chooses a new one themselves. */
  resetUrl: string;
}

/** Tells the owner of an account that its password changed, so an unexpected change is noticed. */
export function passwordChangedEmail(input: PasswordChangedMail): RenderedEmail {
  const lines = [
    `Hello ${input.displayName},`,
    `The password of your account ${input.username} was changed at ${mailTime(input.changedAt)}, and your other sessions were ended.`,
    'If you did not change it, someone else may know your password: choose a new one at once with the link below ("Forgot your password?"). It ends every session of your account.',
  ];
  return {
    template: 'password-changed',
    subject: 'Your password was changed',
    text: `${lines.join('\n\n')}\n\n${input.resetUrl}\n`,
    html: page('Your password was changed', lines, { href: input.resetUrl, label: 'Choose a new password' }),
  };
}

export interface SecretExpiryMail {
  clientDisplayName: string;
  clientId: string;
  secretHint: string;
  secretDisplayName: string;
  expiresAt: Date;
}

export function secretExpiryEmail(input: SecretExpiryMail): RenderedEmail {
  const lines = [
    `The client secret "${input.secretDisplayName}" (starting with ${input.secretHint}) of the API client ${input.clientDisplayName} (${input.clientId}) expires at ${mailTime(input.expiresAt)}.`,
    'Issue a new secret, deploy it, then revoke the old one before that time to avoid an outage.',
  ];
  return {
    template: 'secret-expiry',
    subject: oneLine(`Client secret of ${input.clientDisplayName} expires soon`),
    text: `${lines.join('\n\n')}\n`,
    html: page('Client secret expires soon', lines),
  };
}

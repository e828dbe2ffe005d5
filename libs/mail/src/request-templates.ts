import { type RenderedEmail, escapeHtml, mailTime } from './templates.js';

/**
 * Mails of the access-request process and of the credential handover. Each names the tenant (the
 * operating company the reader deals with) and says what happened and what to do next.
 */
interface MailParts {
  tenantName: string;
  greeting?: string;
  paragraphs: string[];
  /** Label/value lines, e.g. the request's details. */
  facts?: Array<[string, string]>;
  link?: { href: string; label: string };
  /** A line after the link (what to do if the link does not work). */
  after?: string;
}


function subjectOf(tenantName: string, text: string): string {
  return `${tenantName}: ${text}`.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').slice(0, 200);
}

function textOf(parts: MailParts): string {
  const blocks = [
    ...(parts.greeting ? [parts.greeting] : []),
    ...parts.paragraphs,
    ...(parts.facts?.length ? [parts.facts.map(([label, value]) => `${label}: ${value}`).join('\n')] : []),
    ...(parts.link ? [parts.link.href] : []),
    ...(parts.after ? [parts.after] : []),
    `-- ${parts.tenantName}`,
  ];
  return `${blocks.join('\n\n')}\n`;
}

function htmlOf(title: string, parts: MailParts): string {
  const p = (text: string) => `<p>${escapeHtml(text)}</p>`;
  const facts = parts.facts?.length
    ? `<table>${parts.facts.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`
    : '';
  const link = parts.link
    ? `<p><a href="${escapeHtml(parts.link.href)}">${escapeHtml(parts.link.label)}</a></p>\n<p>${escapeHtml(parts.link.href)}</p>`
    : '';
  const body = [
    `<p><strong>${escapeHtml(parts.tenantName)}</strong></p>`,
    ...(parts.greeting ? [p(parts.greeting)] : []),
    ...parts.paragraphs.map(p),
    facts,
    link,
    ...(parts.after ? [p(parts.after)] : []),
  ].filter(Boolean);
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${body.join('\n')}\n</body></html>\n`;
}

function mail(template: RenderedEmail['template'], subject: string, parts: MailParts): RenderedEmail {
  return { template, subject: subjectOf(parts.tenantName, subject), text: textOf(parts), html: htmlOf(subject, parts) };
}

/** What a request asks for, in words: "a personal account and API access for Orders sync". */
export function requestedWhat(input: { account: boolean; systemName: string | null }): string {
  const api = input.systemName !== null ? `API access for ${input.systemName}` : '';
  return [input.account ? 'a personal account' : '', api].filter(Boolean).join(' and ');
}

export interface AccessRequestConfirmMail {
  tenantName: string;
  /** What kinds of access were asked for: never the words typed with them. */
  account: boolean;
  api: boolean;
  link: string;
  expiresAt: Date;
}

/**
 * To the address a request was made with: confirm it is yours, or ignore this mail. Nobody has
 * confirmed that address yet, so the mail carries nothing the requester typed (a name or a
 * system name could be any text — "URGENT: log in at …" — sent from our domain): only the
 * tenant's name, the kind of access and the link, whose page shows the request quoted.
 */
export function accessRequestConfirmEmail(input: AccessRequestConfirmMail): RenderedEmail {
  const what = [input.account ? 'a personal account' : '', input.api ? 'API access for a system' : ''].filter(Boolean).join(' and ');
  return mail('access-request-confirm', 'confirm your access request', {
    tenantName: input.tenantName,
    greeting: 'Hello,',
    paragraphs: [
      `Someone asked ${input.tenantName} for ${what || 'access'} and gave this email address.`,
      `If it was you, open the link below: it shows the request as it was typed. Press "Confirm" there before ${mailTime(input.expiresAt)}; only then is the request passed to the contact person.`,
    ],
    link: { href: input.link, label: 'Review and confirm the request' },
    after: 'If it was not you, ignore this mail: the request expires unconfirmed and nothing else happens.',
  });
}

export interface AccessRequestSubmittedMail {
  tenantName: string;
  requestId: string;
  requesterName: string;
  requesterEmail: string;
  organisation: string;
  what: string;
}

/** To every contact person: a confirmed request waits for a decision. */
export function accessRequestSubmittedEmail(input: AccessRequestSubmittedMail): RenderedEmail {
  return mail('access-request-submitted', `access request from ${input.requesterName} (${input.organisation})`, {
    tenantName: input.tenantName,
    paragraphs: [
      `${input.requesterName} of ${input.organisation} asks for ${input.what}. The request waits for your decision: approve or reject it in the console, or with POST /admin/v1/access-requests/${input.requestId}/approve or /reject.`,
    ],
    facts: [
      ['Request', input.requestId],
      ['Requester', `${input.requesterName} <${input.requesterEmail}>`],
      ['Organisation', input.organisation],
    ],
  });
}

export interface ClientAwaitingScopesMail {
  tenantName: string;
  clientName: string;
  clientId: string;
  organisation: string;
}

/** To the IT department: a client was set up for a partner and needs its scopes. */
export function clientAwaitingScopesEmail(input: ClientAwaitingScopesMail): RenderedEmail {
  return mail('client-awaiting-scopes', `client ${input.clientName} awaits scopes`, {
    tenantName: input.tenantName,
    paragraphs: [
      `An access request of ${input.organisation} was approved and the API client ${input.clientName} was created. It cannot get tokens until it has scopes.`,
      `Assign them in the console, or with PUT /admin/v1/clients/${input.clientId}/scopes. Its credentials then go to the technical contact by a one-time link, without anyone copying a secret.`,
    ],
    facts: [['Client id', input.clientId]],
  });
}

/** The person who decided a request, by name and address (`null`: nobody in particular). */
export type DeciderOfMail = { name: string; email: string } | null | undefined;

export interface AccessRequestApprovedMail {
  tenantName: string;
  requesterName: string;
  /** The username of the account created, when an account was approved. */
  username?: string;
  /** The account's password is chosen through the documentation invitation's link (else: an activation link). */
  invited?: boolean;
  /** The system and its technical contact, when API access was approved. */
  api?: { systemName: string; technicalContactEmail: string };
  note?: string | null;
  decider?: DeciderOfMail;
}

function accountParagraph(username: string, invited: boolean | undefined): string {
  return invited
    ? `Your personal account has the username ${username}. A separate mail brings its one link: open it within 24 hours, choose your password there, then accept the invitation to the documentation.`
    : `Your personal account has the username ${username}. A separate mail brings the link to choose your password; it works once, within 24 hours.`;
}

export function accessRequestApprovedEmail(input: AccessRequestApprovedMail): RenderedEmail {
  const paragraphs = [`Your request to ${input.tenantName} was approved${input.decider ? ` by ${input.decider.name}` : ''}.`];
  if (input.username) paragraphs.push(accountParagraph(input.username, input.invited));
  if (input.api) {
    paragraphs.push(
      `The API client for ${input.api.systemName} has been created. As soon as the IT department has assigned its scopes, ${input.api.technicalContactEmail} receives a one-time link to reveal the client id, the secret and the token request to use.`,
    );
  }
  if (input.note) paragraphs.push(`Note from ${input.decider?.name ?? 'the contact person'}: ${input.note}`);
  if (input.decider) paragraphs.push(`Questions: write to ${contactOf(input.decider, input.tenantName)}.`);
  return mail('access-request-approved', 'your access request was approved', {
    tenantName: input.tenantName,
    greeting: `Hello ${input.requesterName},`,
    paragraphs,
  });
}

export interface AccessRequestRejectedMail {
  tenantName: string;
  requesterName: string;
  what: string;
  note: string;
  decider?: DeciderOfMail;
}

export function accessRequestRejectedEmail(input: AccessRequestRejectedMail): RenderedEmail {
  return mail('access-request-rejected', 'your access request was not approved', {
    tenantName: input.tenantName,
    greeting: `Hello ${input.requesterName},`,
    paragraphs: [
      `Your request to ${input.tenantName} for ${input.what} was not approved.`,
      `Reason given by ${input.decider?.name ?? 'the contact person'}: ${input.note}`,
      `If you have questions, write to ${contactOf(input.decider, input.tenantName)}.`,
    ],
  });
}

export interface HandoverMail {
  tenantName: string;
  clientName: string;
  clientId: string;
  link: string;
  expiresAt: Date;
  /** Whom to ask for a new link: the person responsible for the handover, when known. */
  contact?: { name: string; email: string } | null;
}

/** "Carla Contact <carla@example.com>", or the tenant when no person is known. */
export function contactOf(contact: { name: string; email: string } | null | undefined, tenantName: string): string {
  return contact ? `${contact.name} <${contact.email}>` : `your contact at ${tenantName}`;
}

/** To the recipient of a handover: the one-time link that reveals a new client secret. */
export function handoverEmail(input: HandoverMail): RenderedEmail {
  return mail('handover', `credentials for ${input.clientName}`, {
    tenantName: input.tenantName,
    paragraphs: [
      `${input.tenantName} sends you the credentials of the API client ${input.clientName}.`,
      `Open the link below and press "Reveal". The page then shows, once, the client id, a new client secret, the scope to request and a ready-to-paste token request. Copy them into your secret store at once: the page cannot be shown again. The link works until ${mailTime(input.expiresAt)}.`,
    ],
    facts: [['Client id', input.clientId]],
    link: { href: input.link, label: 'Reveal the credentials' },
    after:
      `Nothing secret exists until you press Reveal, so this mail itself holds no secret. If the link has expired, ask ${contactOf(input.contact, input.tenantName)} for a new one.`,
  });
}

export interface HandoverSentMail {
  tenantName: string;
  requesterName: string;
  systemName: string;
  recipientEmail: string;
  expiresAt: Date;
}

/** To the requester: the credentials of their system went to the technical contact. */
export function handoverSentEmail(input: HandoverSentMail): RenderedEmail {
  return mail('handover-sent', `credentials for ${input.systemName} are on their way`, {
    tenantName: input.tenantName,
    greeting: `Hello ${input.requesterName},`,
    paragraphs: [
      `The API client for ${input.systemName} now has its scopes. Its credentials went to ${input.recipientEmail} as a one-time link, valid until ${mailTime(input.expiresAt)}.`,
    ],
  });
}

export interface HandoverExpiredMail {
  tenantName: string;
  clientName: string;
  clientId: string;
  recipientEmail: string;
  expiredAt: Date;
}

/** To the responsible contact person: a handover link was never opened; no secret was created. */
export function handoverExpiredEmail(input: HandoverExpiredMail): RenderedEmail {
  return mail('handover-expired', `credentials for ${input.clientName} were not picked up`, {
    tenantName: input.tenantName,
    paragraphs: [
      `The one-time link with the credentials of ${input.clientName} sent to ${input.recipientEmail} expired at ${mailTime(input.expiredAt)} without being used. No secret was created.`,
      `Check the address with the partner and send a new link (POST /admin/v1/clients/${input.clientId}/handovers, or "Send credentials" in the console).`,
    ],
    facts: [['Client id', input.clientId]],
  });
}

import type { AuditEventView } from '@gatehouse/audit';
import { type SafeHtml, html } from '@gatehouse/views';

/** Where the console shows a target of this type, if it has a page. */
const TARGET_PAGES: Record<string, string> = { user: 'users', client: 'clients', api: 'apis', access_request: 'requests' };

/** Target types in words. */
const TARGET_WORDS: Record<string, string> = {
  user: 'user',
  client: 'client',
  api: 'API',
  tenant: 'tenant',
  doc_section: 'documentation section',
  invitation: 'invitation',
  access_request: 'access request',
  email: 'mail',
};

/** `2026-11-23 15:20:01 UTC`: audit times to the second. */
export function utcSeconds(iso: string): string {
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

/** Who acted, in words, as they were named then: "Ada Example", "Orders sync (client)", "Gatehouse". */
export function actorText(event: AuditEventView): string {
  const { type, name, userId, clientId } = event.actor;
  if (type === 'system') return 'Gatehouse';
  if (type === 'client') return `${name ?? 'a client'} (client)`;
  return name ?? (userId ? 'a person no longer known' : (clientId ?? type));
}

/** The id beside an actor's name: the username for a person, else the client id. */
export function actorId(event: AuditEventView): string | null {
  return event.actor.username ?? event.actor.userId ?? event.actor.clientId;
}

export function targetWord(event: AuditEventView): string {
  return TARGET_WORDS[event.targetType] ?? event.targetType;
}

/** The target's name as it was then, else its type. */
export function targetText(event: AuditEventView): string {
  return event.targetName ?? targetWord(event);
}

/** A link to the target's page in this console, when it has one. */
export function targetHref(base: string, event: AuditEventView): string | null {
  const page = TARGET_PAGES[event.targetType];
  return page && event.targetId ? `${base}/${page}/${encodeURIComponent(event.targetId)}` : null;
}

/** An id in monospace, wrapping anywhere (a UUID never widens a page). */
export function idCode(id: string | null): SafeHtml | string {
  return id ? html`<code class="id">${id}</code>` : '';
}

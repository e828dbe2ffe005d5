import { type SafeHtml, html, when } from '@gatehouse/views';

export interface SectionLink {
  slug: string;
  title: string;
}

export function docsListPage(sections: SectionLink[]): SafeHtml {
  if (!sections.length) {
    return html`<p>
      No documentation sections are open to you yet. They are opened through an invitation link sent by your contact
      person.
    </p>`;
  }
  return html`<p>These documentation sections are open to you:</p>
    <ul>
      ${sections.map((s) => html`<li><a href="/docs/${encodeURIComponent(s.slug)}">${s.title}</a></li>`)}
    </ul>`;
}

export function sectionPage(body: SafeHtml): SafeHtml {
  return html`<article>${body}</article>
    <p><a href="/docs">All sections</a></p>`;
}

export function invitationPage(input: {
  csrf: string;
  action: string;
  sections: SectionLink[];
  expiresAt: Date;
}): SafeHtml {
  return html`<p>You have been invited to these documentation sections:</p>
    <ul>
      ${input.sections.map((s) => html`<li>${s.title}</li>`)}
    </ul>
    <p class="hint">This invitation expires ${when(input.expiresAt)}.</p>
    <form method="post" action="${input.action}">
      <input type="hidden" name="_csrf" value="${input.csrf}" />
      <button type="submit">Accept</button>
    </form>`;
}

/** Whom to ask about a link that no longer works. */
export function askContact(contactEmail: string | undefined, contactName?: string): SafeHtml {
  const mailto = html`<a href="mailto:${contactEmail}">${contactEmail}</a>`;
  return contactEmail
    ? html`Please ask ${contactName ? html`${contactName} (${mailto})` : mailto} for a new invitation.`
    : html`Please ask your contact person for a new invitation.`;
}

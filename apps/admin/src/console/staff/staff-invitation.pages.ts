import type { StaffMemberView } from '@gatehouse/provisioning';
import { roleNames } from '@gatehouse/accounts';
import { type SafeHtml, badge, html, postForm, timeTag } from '@gatehouse/views';

/** "invited" while the link works, "invitation expired" after; `null` once the person set up their access. */
export function invitationBadge(member: Pick<StaffMemberView, 'invitedUntil'>, now = new Date()): SafeHtml | null {
  if (!member.invitedUntil) return null;
  return member.invitedUntil > now ? badge('invited', 'warn') : badge('invitation expired', 'bad');
}

/** The invitation of someone who has not set up their access: until when it works, Resend, Revoke. */
export function invitationSection(input: { base: string; csrf: string; member: StaffMemberView }, now = new Date()): SafeHtml {
  const { base, member } = input;
  const until = member.invitedUntil;
  if (!until) return html``;
  const path = `${base}/staff/${member.id}/invitation`;
  const state =
    until > now
      ? html`${member.displayName} has not set up their access yet. The link mailed to ${member.email} stops working ${timeTag(until)}.`
      : html`The link mailed to ${member.email} expired ${timeTag(until)} without being used.`;
  return html`<section class="panel" aria-labelledby="invitation-heading">
    <h2 id="invitation-heading">Invitation</h2>
    <p>${state}</p>
    <p class="hint">Resend mails a new link (valid 72 hours); the old one stops working. Revoke ends the invitation and takes the roles away.</p>
    <div class="actions">
      ${postForm({ action: `${path}/resend`, csrf: input.csrf, submit: 'Resend invitation', button: 'secondary', className: 'inline', body: html`` })}
      <a class="button danger" href="${path}/revoke">Revoke invitation…</a>
    </div>
  </section>`;
}

export function revokeConfirmation(input: { base: string; csrf: string; member: StaffMemberView }): SafeHtml {
  const { base, member } = input;
  return html`<p>
      The invitation link mailed to <strong>${member.email}</strong> stops working, and
      <strong>${member.displayName}</strong> (<code>${member.username}</code>) no longer holds
      ${roleNames(member.roles)}: they leave the Staff page and cannot sign in to the console. Invite them again to give
      them access.
    </p>
    ${postForm({
      action: `${base}/staff/${member.id}/invitation/revoke`,
      csrf: input.csrf,
      submit: 'Revoke the invitation',
      button: 'danger',
      body: html``,
      aside: html`<a href="${base}/staff/${member.id}">Cancel</a>`,
    })}`;
}

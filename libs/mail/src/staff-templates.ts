import { type RenderedEmail, escapeHtml, mailTime } from './templates.js';

export interface StaffInvitationMail {
  displayName: string;
  username: string;
  /** The person's roles in words ("Contact person and IT department"). */
  role: string;
  organisation: string;
  link: string;
  expiresAt: Date;
}

/** The link of a staff member's first console sign-in: a password, then an authenticator app. */
export function staffInvitationEmail(input: StaffInvitationMail): RenderedEmail {
  const lines = [
    `Hello ${input.displayName},`,
    `You have been given access to the Gatehouse console of ${input.organisation} as ${input.role}. Your username is ${input.username}.`,
    `Open the link below to choose a password and set up an authenticator app (any TOTP app, such as the one on your phone). The link can be used once and expires at ${mailTime(input.expiresAt)}.`,
  ];
  const html = `<!doctype html>\n<html><head><meta charset="utf-8"><title>Your console access</title></head>\n<body>\n${lines
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('\n')}\n<p><a href="${escapeHtml(input.link)}">Set up your console access</a></p>\n<p>${escapeHtml(input.link)}</p>\n</body></html>\n`;
  return {
    template: 'staff-invitation',
    subject: 'Set up your Gatehouse console access',
    text: `${lines.join('\n\n')}\n\n${input.link}\n`,
    html,
  };
}

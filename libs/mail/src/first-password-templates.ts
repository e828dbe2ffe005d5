import { type InvitationMail, type RenderedEmail, page, mailTime } from './templates.js';

export interface InvitationToChoosePasswordMail extends InvitationMail {
  username: string;
  /** Until when the link can set the password (24 hours at most, never past the invitation). */
  passwordUntil: Date;
}

/**
 * The invitation for someone who has no password yet: the one link leads through choosing a
 * password, then accepting — there is nothing to log in with before.
 */
export function invitationToChoosePasswordEmail(input: InvitationToChoosePasswordMail): RenderedEmail {
  const lines = [
    `Hello ${input.displayName},`,
    `You have been invited to the documentation sections: ${input.sections.join(', ')}.`,
    `Your account ${input.username} has no password yet. Open the link below, choose your password, then accept the invitation.`,
    `For your security the link can set a password until ${mailTime(input.passwordUntil)} only; the invitation itself expires at ${mailTime(input.expiresAt)}.`,
  ];
  return {
    template: 'invitation',
    subject: 'You are invited to private documentation',
    text: `${lines.join('\n\n')}\n\n${input.link}\n`,
    html: page('Invitation', lines, { href: input.link, label: 'Choose a password and accept' }),
  };
}

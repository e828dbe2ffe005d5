import { mailTime } from './templates.js';
import { type RenderedEmail, page } from './templates.js';

export interface SelfServiceResetMail {
  displayName: string;
  username: string;
  link: string;
  expiresAt: Date;
}

/**
 * The link a person asked for on "Forgot your password?". It says which account it is for, how long
 * it works, and that ignoring it changes nothing (anyone can ask for a mail to be sent).
 */
export function selfServiceResetEmail(input: SelfServiceResetMail): RenderedEmail {
  const lines = [
    `Hello ${input.displayName},`,
    `Someone asked to reset the password of your account ${input.username}. If it was you, choose a new password with the link below. It works once, until ${mailTime(input.expiresAt)} (one hour), and only the newest link works.`,
    'Choosing a new password signs your account out everywhere. If you hold a role in the console, you still sign in there with your second factor.',
    'If you did not ask for this, ignore this mail: your password stays as it is.',
  ];
  return {
    template: 'password-reset-requested',
    subject: 'Reset your password',
    text: `${lines.join('\n\n')}\n\n${input.link}\n`,
    html: page('Reset your password', lines, { href: input.link, label: 'Choose a new password' }),
  };
}

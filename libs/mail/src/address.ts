import { isEmail } from 'class-validator';
import { MailError, MailErrorCode } from './mail.errors.js';

/** One bare address: no control characters, no list separators, no display name, no comments. */
const BARE = /^[^\s\p{Cc},;<>()"\\[\]]+@[^\s\p{Cc},;<>()"\\[\]@]+$/u;

export function isSingleAddress(address: unknown): address is string {
  return typeof address === 'string' && address.length <= 254 && BARE.test(address) && isEmail(address);
}

/** Refuses anything that is not exactly one plain address: nothing extra ever reaches SMTP. */
export function assertSingleAddress(address: string): string {
  if (!isSingleAddress(address)) throw new MailError(MailErrorCode.InvalidAddress, 'The email address must be exactly one plain address.');
  return address;
}

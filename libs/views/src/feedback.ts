import { type SafeHtml, html } from './html.js';

/** A message under the page header saying what just happened ("Secret created. Copy it now."). */
export interface Flash {
  kind: 'success' | 'info' | 'warning' | 'error';
  text: string;
}

export function flashMessages(messages: readonly Flash[]): SafeHtml {
  return html`${messages.map(
    (message) =>
      html`<div class="flash ${message.kind}" role="${message.kind === 'error' ? 'alert' : 'status'}">
        <p>${message.text}</p>
      </div>`,
  )}`;
}

/** One step of a breadcrumb trail; the last one (the page itself) has no link. */
export interface Crumb {
  label: string;
  href?: string;
}

export function breadcrumbs(trail: readonly Crumb[]): SafeHtml {
  return html`<nav class="crumbs" aria-label="Breadcrumb">
    <ol>
      ${trail.map((crumb) =>
        crumb.href
          ? html`<li><a href="${crumb.href}">${crumb.label}</a></li>`
          : html`<li><span aria-current="page">${crumb.label}</span></li>`,
      )}
    </ol>
  </nav>`;
}

export type BadgeTone = 'good' | 'warn' | 'bad' | 'neutral';

/** A status as text in a pill: the colour only repeats what the word says. */
export function badge(text: string, tone: BadgeTone = 'neutral'): SafeHtml {
  return html`<span class="badge ${tone}">${text}</span>`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `2026-12-01 14:00 UTC`. */
export function utc(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function span(ms: number): string {
  const abs = Math.abs(ms);
  const [value, unit] =
    abs >= 2 * DAY
      ? [Math.round(abs / DAY), 'day']
      : abs >= 2 * HOUR
        ? [Math.round(abs / HOUR), 'hour']
        : abs >= MINUTE
          ? [Math.max(1, Math.round(abs / MINUTE)), 'minute']
          : [Math.max(1, Math.ceil(abs / 1000)), 'second'];
  return `${value} ${unit}${value === 1 ? '' : 's'}`;
}

/** A time as people read it: "in 3 days (2026-12-01 14:00 UTC)", "5 minutes ago (…)". */
export function when(at: Date, now: Date = new Date()): string {
  const delta = at.getTime() - now.getTime();
  return `${delta >= 0 ? `in ${span(delta)}` : `${span(delta)} ago`} (${utc(at)})`;
}

/** A duration from now until `until`, in words ("15 minutes"). */
export function duration(until: Date, now: Date = new Date()): string {
  return span(until.getTime() - now.getTime());
}

/** A `<time>` element with the readable text and the exact instant for machines. */
export function timeTag(at: Date, now: Date = new Date()): SafeHtml {
  return html`<time datetime="${at.toISOString()}">${when(at, now)}</time>`;
}

/**
 * A deadline in the right tense: "link expires in 3 days (…)", and once past "link expired 1 minute
 * ago (…)" — never "expires 1 minute ago". Without words, a past deadline reads "expired …".
 */
export function expiryTag(at: Date, words: { future: string; past: string } = { future: '', past: 'expired' }, now: Date = new Date()): SafeHtml {
  const verb = at.getTime() > now.getTime() ? words.future : words.past;
  return verb ? html`${verb} ${timeTag(at, now)}` : timeTag(at, now);
}

/** Locks shorter than this are the short pauses between early failures, not worth naming. */
const NOTEWORTHY_LOCK_MS = 10_000;

/**
 * What a refused sign-in says: the generic refusal, or that the username is locked and until when.
 * The caller's lock comes alike for a username with or without an account, so this reveals nothing.
 */
export function signInRefusal(lockedUntil: Date | null, generic: string, now: Date = new Date()): string {
  if (!lockedUntil || lockedUntil.getTime() - now.getTime() < NOTEWORTHY_LOCK_MS) return generic;
  return `Sign-in for this username is locked for ${duration(lockedUntil, now)} (until ${utc(lockedUntil)}) after repeated failed attempts. Try again then, or ask to have it unlocked.`;
}

/**
 * What a refused second factor says when sign-in is locked, whatever lock it is (the account's, or
 * one of wrong codes alone): until when, and what to do next. A pause of a few seconds (after the
 * third and fourth wrong code) only asks to wait a moment.
 */
export function wrongCodeRefusal(lockedUntil: Date, now: Date = new Date()): string {
  if (lockedUntil.getTime() - now.getTime() < NOTEWORTHY_LOCK_MS) {
    return 'That code did not work, and after several wrong codes sign-in pauses for a few seconds. Wait a moment, then enter the code your app shows now.';
  }
  return `Too many wrong codes: sign-in is locked for ${duration(lockedUntil, now)} (until ${utc(lockedUntil)}). Try again then with the code your app shows at that time. Lost your phone? Use one of your recovery codes instead, or ask an Administrator to reset your second factor.`;
}

import type { Request } from 'express';
import type { SessionService, SentForm } from '@gatehouse/sessions';
import { type SafeHtml, hiddenInputs, html, inputField, postForm, textareaField, when } from '@gatehouse/views';
import type { FormRepeated, KeptView } from './console-once.js';
import { keptBody } from './console-once.js';
import type { ConsolePrincipal } from './console-principal.js';
import type { ConsoleResult, ConsoleView } from './console-responder.js';

/** Fields never written back into a page. */
const SECRET_FIELD = /password|secret|code|credential/i;

const sentAt = (sent: SentForm) => when(new Date(sent.completedAt ?? sent.createdAt));

/**
 * A form sent again. The same copy (a double click, a reload of the POST): straight to the first
 * sending's result, with a word that it was done once. The same fields from a fresh copy (Back,
 * a second tab): a page saying what was done and when, with a link to it and a button to do it
 * again on purpose.
 */
export async function repeated(
  error: FormRepeated,
  who: ConsolePrincipal,
  sessions: SessionService,
): Promise<ConsoleResult> {
  const previous = error.previous;
  if (previous.state === 'pending' || !previous.location) {
    return {
      title: 'Still being done',
      lead: 'This form was sent moments ago and the first sending is still being done.',
      body: html`<p>
        Nothing was done twice. <a href="${who.base}">Go to the Overview</a>, or open the page again in a moment to see
        the result.
      </p>`,
      status: 409,
    };
  }
  if (error.sameToken) {
    await sessions.addFlash(who.sessionId, {
      kind: 'info',
      text: `This form was sent more than once; it was done once, ${sentAt(previous)}. Nothing was done again.`,
    });
    return { redirect: previous.location };
  }
  const secretless = !Object.keys(error.fields).some((name) => SECRET_FIELD.test(name));
  return {
    title: 'Already done',
    lead: `You sent this same form ${sentAt(previous)}, and it was done then. Nothing was done again.`,
    body: html`${previous.message ? html`<p>What was done: ${previous.message}</p>` : ''}
      <p><a class="button" href="${previous.location}">See the result</a></p>
      ${
        secretless
          ? postForm({
              action: error.action,
              csrf: who.csrfToken,
              submit: 'Do it again',
              button: 'secondary',
              body: html`<p class="hint">Meant to do it a second time? This sends the same form again.</p>
                ${hiddenInputs({ ...error.fields, _again: '1' })}`,
            })
          : ''
      }`,
  };
}

/** Under a conflict ("already approved"): the way back to the page the form was on. */
export function goBack(req: Request, who: ConsolePrincipal): SafeHtml {
  const back = sameOriginPath(req.get('referer'), who.base);
  return back
    ? html`<p><a class="button" href="${back}">Back to the page, as it is now</a></p>`
    : html`<p><a class="button" href="${who.base}">Go to the Overview</a></p>`;
}

function sameOriginPath(referer: string | undefined, base: string): string | null {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    return url.pathname.startsWith(base) ? url.pathname + url.search : null;
  } catch {
    return null;
  }
}

/** A result shown once (a new secret): the kept page, or where it was and what to do now. */
export function resultPage(who: ConsolePrincipal, kept: { view: KeptView | null; sent: SentForm } | null): ConsoleView {
  if (kept?.view) {
    const view = kept.view;
    return {
      title: view.title,
      breadcrumbs: view.breadcrumbs,
      lead: view.lead ? keptBody({ ...view, body: view.lead }) : undefined,
      flash: view.flash,
      body: keptBody(view),
    };
  }
  const back = kept?.sent ? (kept.sent.message ?? 'The action was done.') : null;
  return {
    title: 'Shown once already',
    status: kept ? 410 : 404,
    body: html`<p>
        ${
          back
            ? html`Its page said “${back}” and was shown
              once${kept?.sent.shownAt ? html`, ${when(new Date(kept.sent.shownAt))}` : ''}. What it showed (a secret,
              a password, a link) is not kept, so it cannot be shown again.`
            : 'There is no such result.'
        }
      </p>
      <p>If you did not copy it, make a new one where you made this one and revoke the old one.</p>
      <p>
        <a class="button" href="${kept ? kept.sent.path.slice(0, kept.sent.path.lastIndexOf('/')) : who.base}"
          >${kept ? 'Back to where you made it' : 'Go to the Overview'}</a
        >
      </p>`,
  };
}

/** A form kept when the session ended, as typed, ready to send. */
export function resumePage(
  who: ConsolePrincipal,
  stash: { action: string; fields: Record<string, string | string[]>; createdAt: Date } | null,
): ConsoleView {
  if (!stash) {
    return {
      title: 'Nothing to continue',
      status: 404,
      body: html`<p>
          The form kept when your session ended is no longer here: it was kept for an hour, for the person who typed it.
          Open the page again and type it once more.
        </p>
        <p><a class="button" href="${who.base}">Go to the Overview</a></p>`,
    };
  }
  const single = Object.entries(stash.fields).filter((e): e is [string, string] => typeof e[1] === 'string');
  const lists = Object.fromEntries(Object.entries(stash.fields).filter(([, v]) => typeof v !== 'string'));
  return {
    title: 'Continue where you left off',
    lead: `Your session ended before this form was sent, so nothing was changed yet. Here it is as you typed it ${when(new Date(stash.createdAt))}: check it, then send it.`,
    body: postForm({
      action: stash.action,
      csrf: who.csrfToken,
      submit: 'Send it now',
      body: html`<p class="hint">It goes to <code>${stash.action}</code>.</p>
        ${hiddenInputs(lists)}
        ${single.map(([name, value]) => {
          const label = labelOf(name);
          return value.includes('\n') || value.length > 80
            ? textareaField({
                name,
                id: `kept-${name}`,
                label,
                value,
                rows: Math.min(20, value.split('\n').length + 2),
              })
            : inputField({ name, id: `kept-${name}`, label, value });
        })}`,
      aside: html`<a href="${who.base}">Discard</a>`,
    }),
  };
}

/** `expiresInDays` → "Expires in days". */
function labelOf(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

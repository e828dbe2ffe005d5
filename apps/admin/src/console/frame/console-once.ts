import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { cookieOf } from '@gatehouse/http';
import { FormSubmissionRepository, type SentForm, formContentHash } from '@gatehouse/sessions';
import { FORM_TOKEN_FIELD, type Flash, SafeHtml } from '@gatehouse/views';
import { field, formFields } from './console-forms.js';
import type { ConsolePrincipal, ConsoleRequest } from './console-principal.js';
import { ConsoleSession } from './console-session.js';

/** How long a second sending waits for the first one to finish before saying it is still under way. */
const WAIT_MS = 15_000;

/** A form already sent: the first sending's outcome, and how this one repeats it. */
export class FormRepeated extends Error {
  constructor(
    readonly previous: SentForm,
    /** The very same copy of the form (a double click, a reload of the POST), not the same fields from another copy. */
    readonly sameToken: boolean,
    readonly action: string,
    readonly fields: Record<string, string | string[]>,
  ) {
    super('This form was sent before.');
    this.name = 'FormRepeated';
  }
}

/** A page kept to be shown once, as the responder renders it. */
export interface KeptView {
  title: string;
  body: string;
  breadcrumbs?: { label: string; href?: string }[];
  lead?: string;
  flash?: Flash[];
}

/**
 * Every console form acts once. Each copy of a form carries a one-time token (`_once`, written
 * by the view layer's `csrfInput`); the guard claims it before the handler runs. A second sending
 * of the same copy (double click, reload of the POST, Back to a cached copy) — or the same fields
 * sent again to the same path from a fresh copy (Back re-fetched it; a second tab) — does not act
 * again: it waits for the first to finish and lands on its result. A result shown once (a new
 * secret) is kept encrypted under a key derived from the browser's session cookie and shown by a
 * GET that works once (POST → redirect → GET): a reload then says it was shown and where to go.
 */
@Injectable()
export class ConsoleOnce {
  constructor(
    private readonly forms: FormSubmissionRepository,
    private readonly session: ConsoleSession,
  ) {}

  /** Claims this POST's form token, or throws {@link FormRepeated} with the first sending's outcome. */
  async claim(req: ConsoleRequest, who: ConsolePrincipal): Promise<void> {
    const token = field(req, FORM_TOKEN_FIELD);
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return; // not one of our forms' copies: acts as sent
    const action = req.originalUrl.split('?')[0]!;
    const fields = formFields(req);
    const claim = await this.forms.claim({
      sessionId: who.sessionId,
      token,
      path: action,
      contentHash: formContentHash(action, fields),
      again: field(req, '_again') === '1',
    });
    if (claim.claimed) {
      req.formOnce = { token };
      return;
    }
    const previous =
      claim.previous.state === 'pending' ? await this.settled(who.sessionId, claim.previous) : claim.previous;
    throw new FormRepeated(previous, claim.sameToken, action, fields);
  }

  /** The action redirected: later sendings of this form go where it went. */
  async redirected(
    req: ConsoleRequest,
    who: ConsolePrincipal,
    location: string,
    message: string | null,
  ): Promise<void> {
    if (!req.formOnce || req.formOnce.settled) return;
    req.formOnce.settled = true;
    await this.forms.complete(who.sessionId, req.formOnce.token, { location, message });
  }

  /** The action's result is a page to show once: kept encrypted; returns the GET that shows it. */
  async keep(req: ConsoleRequest, who: ConsolePrincipal, view: KeptView): Promise<string | null> {
    const cookie = cookieOf(req, this.session.cookieName);
    if (!req.formOnce || req.formOnce.settled || !cookie) return null;
    req.formOnce.settled = true;
    const location = `${who.base}/results/${req.formOnce.token}`;
    const message = view.flash?.map((f) => f.text).join(' ') || view.title;
    await this.forms.complete(who.sessionId, req.formOnce.token, {
      location,
      message,
      view: seal(cookie, JSON.stringify(view)),
    });
    return location;
  }

  /** The action did nothing (its form came back with errors, or it was refused): the form may be sent again. */
  async release(req: ConsoleRequest, who: ConsolePrincipal | undefined): Promise<void> {
    if (!req.formOnce || req.formOnce.settled || !who) return;
    req.formOnce.settled = true;
    await this.forms.release(who.sessionId, req.formOnce.token);
  }

  /** The kept result, once: the view, or `null` with when it was shown (or nothing for an unknown token). */
  async take(
    req: ConsoleRequest,
    who: ConsolePrincipal,
    token: string,
  ): Promise<{ view: KeptView | null; sent: SentForm } | null> {
    const row = await this.forms.takeView(who.sessionId, token);
    if (!row) return null;
    const cookie = cookieOf(req, this.session.cookieName);
    const view = row.view && cookie ? (JSON.parse(open(cookie, row.view)) as KeptView) : null;
    return { view, sent: row };
  }

  private async settled(sessionId: Buffer, first: SentForm): Promise<SentForm> {
    const until = Date.now() + WAIT_MS;
    let current = first;
    while (current.state === 'pending' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      current = (await this.forms.find(sessionId, first.token)) ?? { ...current, state: 'done', location: null };
    }
    return current;
  }
}

/** The kept page back as view parts. */
export function keptBody(view: KeptView): SafeHtml {
  return new SafeHtml(view.body);
}

function keyOf(cookie: string): Buffer {
  return Buffer.from(hkdfSync('sha256', cookie, Buffer.alloc(0), 'gatehouse console result shown once', 32));
}

function seal(cookie: string, text: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(cookie), iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

function open(cookie: string, box: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', keyOf(cookie), box.subarray(0, 12));
  decipher.setAuthTag(box.subarray(12, 28));
  return Buffer.concat([decipher.update(box.subarray(28)), decipher.final()]).toString('utf8');
}

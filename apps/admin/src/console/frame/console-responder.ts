import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { type Crumb, type Flash, SafeHtml, escapeHtml, renderPage } from '@gatehouse/views';
import { CONSOLE_IDLE_SECONDS, SessionService } from '@gatehouse/sessions';
import { WorkQueueService } from '@gatehouse/workqueues';
import { ACCOUNT_PATH, consoleNav } from './console-navigation.js';
import { ConsoleOnce } from './console-once.js';
import type { ConsolePrincipal, ConsoleRequest } from './console-principal.js';

/** A console page as a page group's presenter describes it; the frame is added here. */
export interface ConsoleView {
  title: string;
  body: SafeHtml;
  breadcrumbs?: Crumb[];
  /** The primary action at the top right ("Invite staff"). */
  action?: SafeHtml;
  lead?: SafeHtml | string;
  flash?: Flash[];
  status?: number;
  /**
   * The result of a POST that acted and shows something once (a new secret, a one-time password):
   * kept encrypted and shown by a GET after a redirect, once. Any other page a POST answers with
   * (a form back with errors, a preview) leaves the form free to be sent again.
   */
  shownOnce?: boolean;
}

/** Where to go next (a 303 to a console path, built from the principal's `base`), and a message for that page. */
export interface ConsoleNext {
  redirect: string;
  flash?: Flash;
}

/** A file to download (an export), written as its chunks come. */
export interface ConsoleDownload {
  download: { filename: string; contentType: string; chunks: AsyncIterable<string> };
}

export type ConsoleResult = ConsoleView | ConsoleNext | ConsoleDownload;

export const STYLESHEET_PATH = '/console/assets/gatehouse.css';
export const SCRIPT_PATH = '/console/assets/console.js';

/** Sends what a presenter decided: a page in the console frame, or a redirect with its flash. */
@Injectable()
export class ConsoleResponder {
  constructor(
    private readonly queues: WorkQueueService,
    private readonly sessions: SessionService,
    private readonly once: ConsoleOnce,
  ) {}

  /**
   * A POST's outcome is recorded for its form's one-time token: a redirect, where later sendings
   * go; a page shown once (a new secret), kept to be shown by a GET after a redirect; any other
   * page (a form back with errors, a preview), nothing (it may be sent again).
   */
  async send(res: Response, who: ConsolePrincipal, result: ConsoleResult | Promise<ConsoleResult>): Promise<void> {
    const outcome = await result;
    const req = res.req as ConsoleRequest;
    if ('download' in outcome) return download(res, outcome.download);
    const acted = 'redirect' in outcome || outcome.shownOnce === true;
    if (req.stepUpDue && acted)
      throw new Error(`${req.path}: @StepUp({ afterValidation: true }) without ConsoleStepUp.confirm`);
    if ('redirect' in outcome) {
      await this.once.redirected(req, who, outcome.redirect, outcome.flash?.text ?? null);
      if (outcome.flash) await this.sessions.addFlash(who.sessionId, outcome.flash);
      return redirect(res, outcome.redirect);
    }
    if (req.method === 'POST' && req.formOnce && !acted) await this.once.release(req, who);
    if (req.method === 'POST' && req.formOnce && acted) {
      const lead = typeof outcome.lead === 'string' ? escapeHtml(outcome.lead) : outcome.lead?.value;
      const kept = {
        title: outcome.title,
        body: outcome.body.value,
        breadcrumbs: outcome.breadcrumbs,
        lead,
        flash: outcome.flash,
      };
      const location = await this.once.keep(req, who, kept);
      if (location) return redirect(res, location);
    }
    const queues = await this.queues.for(who.tenantId, who);
    const path = pagePath(res.req.path, who.base);
    const html = renderPage({
      title: outcome.title,
      site: 'Gatehouse console',
      brand: { label: 'Gatehouse', part: 'console', href: who.base },
      stylesheet: STYLESHEET_PATH,
      scripts: [SCRIPT_PATH],
      nav: consoleNav(who.base, who.permissions, queues, path),
      navPlacement: 'side',
      navLabel: 'Console',
      account: {
        name: who.displayName,
        detail: who.tenant.displayName,
        links: [{ label: 'My account', href: `${who.base}/${ACCOUNT_PATH}`, current: path.startsWith(ACCOUNT_PATH) }],
        signOut: { action: `${who.base}/logout`, csrf: who.csrfToken, label: 'Sign out' },
        session: {
          idleSeconds: CONSOLE_IDLE_SECONDS,
          alive: `${who.base}/session/alive`,
          signIn: `${who.base}/login?returnTo=${encodeURIComponent(req.method === 'GET' ? req.originalUrl : who.base)}`,
          signInLabel: 'Sign in again',
          keepsForms: true,
        },
      },
      breadcrumbs: outcome.breadcrumbs,
      action: outcome.action,
      lead: outcome.lead,
      flash: [...who.flash, ...(outcome.flash ?? [])],
      body: outcome.body,
    });
    sendHtml(res, outcome.status ?? 200, html);
  }

  /** A page of the sign-in steps: no navigation, a narrow column. */
  signIn(res: Response, base: string, view: ConsoleView): void {
    const html = renderPage({
      title: view.title,
      site: 'Gatehouse console',
      brand: { label: 'Gatehouse', part: 'console', href: base },
      stylesheet: STYLESHEET_PATH,
      scripts: [SCRIPT_PATH],
      nav: [],
      navPlacement: 'side',
      navLabel: 'Console',
      account: null,
      narrow: true,
      lead: view.lead,
      flash: view.flash,
      body: view.body,
    });
    sendHtml(res, view.status ?? 200, html);
  }
}

/** The page's path under the console's base, without slashes at either end. */
function pagePath(path: string, base: string): string {
  const decoded = decodeURIComponent(path);
  const rest = decoded.startsWith(base) ? decoded.slice(base.length) : decoded;
  return rest.replace(/^\/+|\/+$/g, '');
}

async function download(res: Response, file: ConsoleDownload['download']): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  try {
    for await (const chunk of file.chunks) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    }
  } catch (error) {
    res.destroy(); // a half-written file must not look complete: the download fails visibly
    throw error;
  }
  res.end();
}

export function redirect(res: Response, location: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res.redirect(303, location);
}

export function sendHtml(res: Response, status: number, html: string): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.send(html);
}

import type { Response } from 'express';
import { type PageInput, type Viewer, layout } from './layout.js';
import type { WebContext } from './web-session.js';

/** Leave the current request for another page (a 303 after a POST). */
export class WebRedirect extends Error {
  constructor(readonly location: string) {
    super(location);
    this.name = 'WebRedirect';
  }
}

export function viewerOf(context: WebContext | null): Viewer | null {
  const principal = context?.principal;
  if (!principal) return null;
  return { displayName: principal.displayName, csrfToken: principal.csrfToken, flash: context.flash };
}

/** Sends a full page. UI pages are personal: never cached. */
export function sendPage(
  res: Response,
  status: number,
  page: PageInput,
  headers: Record<string, string> = {},
): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.send(layout(page));
}

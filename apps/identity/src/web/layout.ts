import { type SafeHtml, html } from '@gatehouse/views';
import { returnToQuery } from './return-to.js';

/** Who is looking at a page, as the navigation bar needs it. */
export interface Viewer {
  displayName: string;
  csrfToken: string;
}

export interface PageInput {
  title: string;
  body: SafeHtml;
  viewer: Viewer | null;
  /** The path to come back to after logging in. */
  path: string;
}

function nav(viewer: Viewer | null, path: string): SafeHtml {
  if (!viewer) {
    const login = path.startsWith('/login') ? '/login' : `/login?${returnToQuery(path)}`;
    return html`<a class="button" href="${login}">Log in</a>`;
  }
  return html`<a href="/docs">Documentation</a>
    <span>Signed in as <strong>${viewer.displayName}</strong></span>
    <form method="post" action="/logout">
      <input type="hidden" name="_csrf" value="${viewer.csrfToken}" />
      <button type="submit" class="secondary">Log out</button>
    </form>`;
}

/** The shell of every page: skip link, navigation bar with Log in / Log out, main content. */
export function layout({ title, body, viewer, path }: PageInput): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} – Gatehouse</title>
        <link rel="stylesheet" href="/assets/gatehouse.css" />
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <nav aria-label="Main"><a class="brand" href="/docs">Gatehouse</a>${nav(viewer, path)}</nav>
        </header>
        <main id="main">
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html> `.value;
}

import { type SafeHtml, html } from './html.js';
import { type Crumb, type Flash, breadcrumbs, flashMessages } from './feedback.js';
import { csrfInput } from './forms.js';

/** One entry of a navigation: a link, with the count of waiting work beside it when there is some. */
export interface NavItem {
  label: string;
  href: string;
  /** Waiting work; shown as a number with `countLabel` for screen readers ("3 waiting"). */
  count?: number;
  countLabel?: string;
  current?: boolean;
}

/** The signed-in person at the top right: name, tenant, and a Sign out button (a POST with CSRF). */
export interface AccountArea {
  name: string;
  /** Shown under the name ("Tenant: acme"). */
  detail?: string;
  /** Extra links beside the name (e.g. "Change password"). */
  links?: NavItem[];
  signOut: { action: string; csrf: string; label: string };
  /** The session's idle timeout, for the warning before it ends (SESSION_SCRIPT). */
  session?: SessionWatch;
}

/**
 * What the page's script needs to warn before an idle session ends: its idle seconds, a GET that
 * keeps it alive (204 while it lives), where to sign in again, and whether a form sent after it
 * ended is kept for the person (the console's are).
 */
export interface SessionWatch {
  idleSeconds: number;
  alive: string;
  signIn: string;
  /** The words of the link there, as the UI says them ("Sign in again", "Log in again"). */
  signInLabel: string;
  keepsForms: boolean;
}

function sessionAttributes(session: SessionWatch | undefined): SafeHtml | string {
  if (!session) return '';
  return html`data-session-idle="${String(session.idleSeconds)}" data-session-alive="${session.alive}"
  data-session-sign-in="${session.signIn}" data-session-sign-in-label="${session.signInLabel}" data-session-keeps="${session.keepsForms ? 'forms' : ''}"`;
}

export interface PageFrame {
  /** The document title and the page's one `h1`. */
  title: string;
  /** Text after the title in the browser tab ("Gatehouse", "Gatehouse console"). */
  site: string;
  brand: { label: string; part?: string; href: string };
  stylesheet: string;
  scripts?: string[];
  /** The navigation of the page's UI, passed in: the view layer knows no app. */
  nav: NavItem[];
  /** `top`: links in the top bar (Web UI); `side`: a left sidebar (console). */
  navPlacement: 'top' | 'side';
  navLabel: string;
  account: AccountArea | null;
  /** Shown instead of the account area to someone not signed in. */
  signIn?: { href: string; label: string };
  breadcrumbs?: Crumb[];
  /** The page's primary action, top right ("New client"). */
  action?: SafeHtml;
  lead?: SafeHtml | string;
  flash?: Flash[];
  body: SafeHtml;
  /** `false` when the body carries its own `h1`. */
  heading?: boolean;
  /** A narrow single-column page without navigation (sign-in steps). */
  narrow?: boolean;
}

function navList(items: NavItem[]): SafeHtml {
  return html`<ul>
    ${items.map(
      (item) =>
        html`<li>
          <a href="${item.href}" ${item.current ? html`aria-current="page"` : ''}
            ><span>${item.label}</span>${item.count
              ? html`<span class="count"
                  >${item.count}<span class="visually-hidden"> ${item.countLabel ?? 'waiting'}</span></span
                >`
              : ''}</a
          >
        </li>`,
    )}
  </ul>`;
}

function signOutForm(account: AccountArea): SafeHtml {
  const { action, csrf, label } = account.signOut;
  return html`<form method="post" action="${action}">
    ${csrfInput(csrf)}
    <button type="submit" class="secondary">${label}</button>
  </form>`;
}

function accountArea(frame: PageFrame): SafeHtml {
  const account = frame.account;
  if (!account) return frame.signIn ? html`<a class="button" href="${frame.signIn.href}">${frame.signIn.label}</a>` : html``;
  const links = account.links ?? [];
  return html`<div class="account">
    ${links.length ? html`<nav class="topnav wide-only" aria-label="Account">${navList(links)}</nav>` : ''}
    <span class="account-who wide-only"
      ><span>Signed in as <strong>${account.name}</strong></span>${account.detail
        ? html`<span class="account-tenant">${account.detail}</span>`
        : ''}</span
    >
    ${signOutForm(account)}
  </div>`;
}

/** The Menu button of narrow screens: a `<details>`, so it works without JavaScript. */
function menu(frame: PageFrame): SafeHtml {
  const links = [...frame.nav, ...(frame.account?.links ?? [])];
  if (!links.length) return html``;
  const who = frame.account
    ? html`<p class="menu-who">
        ${frame.account.name}${frame.account.detail ? html` · ${frame.account.detail}` : ''}
      </p>`
    : '';
  return html`<details class="menu narrow-only">
    <summary>Menu</summary>
    <div class="menu-panel">
      <nav aria-label="${frame.navLabel}">${navList(links)}</nav>
      ${who}
    </div>
  </details>`;
}

function topbar(frame: PageFrame): SafeHtml {
  const top = frame.navPlacement === 'top' && frame.nav.length;
  return html`<header class="topbar">
    <div class="topbar-inner ${frame.navPlacement === 'top' ? 'centered' : ''}">
      <a class="brand" href="${frame.brand.href}"
        >${frame.brand.label}${frame.brand.part ? html` <span class="brand-part">${frame.brand.part}</span>` : ''}</a
      >
      ${top ? html`<nav class="topnav wide-only" aria-label="${frame.navLabel}">${navList(frame.nav)}</nav>` : ''}
      ${frame.narrow ? '' : menu(frame)} ${accountArea(frame)}
    </div>
  </header>`;
}

function mainColumn(frame: PageFrame): SafeHtml {
  const heading =
    frame.heading === false
      ? ''
      : html`<div class="page-head">
          <h1>${frame.title}</h1>
          ${frame.action ?? ''}
        </div>`;
  const width = frame.narrow ? 'narrow' : frame.navPlacement === 'top' ? 'centered' : '';
  return html`<main id="main" class="${width}">
    <div class="content">
      ${frame.breadcrumbs?.length ? breadcrumbs(frame.breadcrumbs) : ''} ${heading}
      ${frame.lead ? html`<p class="lead">${frame.lead}</p>` : ''} ${flashMessages(frame.flash ?? [])} ${frame.body}
    </div>
  </main>`;
}

/**
 * The shell of every page of both UIs: skip link, top bar (brand, navigation or Menu button, the
 * person and Sign out), an optional sidebar, breadcrumbs, the one `h1` with the primary action,
 * flash messages, then the body. Which links the navigation holds is the caller's business.
 */
export function renderPage(frame: PageFrame): string {
  const side = frame.navPlacement === 'side' && frame.nav.length && !frame.narrow;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${frame.title} – ${frame.site}</title>
        <link rel="stylesheet" href="${frame.stylesheet}" />
        ${(frame.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
      </head>
      <body ${sessionAttributes(frame.account?.session)}>
        <a class="skip" href="#main">Skip to content</a>
        ${topbar(frame)}
        <div class="frame">
          ${side ? html`<nav class="sidebar wide-only" aria-label="${frame.navLabel}">${navList(frame.nav)}</nav>` : ''}
          ${mainColumn(frame)}
        </div>
      </body>
    </html>`.value;
}

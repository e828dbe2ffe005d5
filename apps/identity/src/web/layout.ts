import { type Flash, type NavItem, type SafeHtml, renderPage } from '@gatehouse/views';
import { SESSION_IDLE_SECONDS } from '@gatehouse/sessions';
import { returnToQuery } from './return-to.js';

/** Who is looking at a page, as the navigation bar needs it. */
export interface Viewer {
  displayName: string;
  csrfToken: string;
  /** Messages of the session for this page ("Your password has been changed."). */
  flash?: Flash[];
}

export interface PageInput {
  title: string;
  body: SafeHtml;
  viewer: Viewer | null;
  /** The path to come back to after logging in. */
  path: string;
  /** `false` when the body carries its own `h1`. */
  heading?: boolean;
  /** `false`: no "Log in" button for a visitor; by default, none on {@link ACCOUNTLESS_PAGES}. */
  loginLink?: boolean;
}

/**
 * Pages for people who have no account here: a technical contact receiving credentials by a
 * handover link (its page, its reveal, and why a link no longer works) has nothing to log in with.
 */
const ACCOUNTLESS_PAGES = /^\/handover\//;

function navigation(viewer: Viewer | null, path: string): { nav: NavItem[]; links: NavItem[] } {
  if (!viewer) return { nav: [], links: [] };
  return {
    nav: [{ label: 'Documentation', href: '/docs', current: path === '/docs' || path.startsWith('/docs/') }],
    links: [{ label: 'Change password', href: '/password', current: path === '/password' }],
  };
}

/** The Web UI's pages in the shared frame: Documentation and Change password, the name and Log out. */
export function layout({ title, body, viewer, path, heading, loginLink = !ACCOUNTLESS_PAGES.test(path) }: PageInput): string {
  const { nav, links } = navigation(viewer, path);
  const login = path.startsWith('/login') ? '/login' : `/login?${returnToQuery(path)}`;
  return renderPage({
    title,
    site: 'Gatehouse',
    brand: { label: 'Gatehouse', href: '/docs' },
    stylesheet: '/assets/gatehouse.css',
    scripts: ['/assets/gatehouse.js'],
    nav,
    navPlacement: 'top',
    navLabel: 'Main',
    account: viewer
      ? {
          name: viewer.displayName,
          links,
          signOut: { action: '/logout', csrf: viewer.csrfToken, label: 'Log out' },
          session: { idleSeconds: SESSION_IDLE_SECONDS, alive: '/session/alive', signIn: `/login?${returnToQuery(path)}`, signInLabel: 'Log in again', keepsForms: false },
        }
      : null,
    signIn: loginLink ? { href: login, label: 'Log in' } : undefined,
    flash: viewer?.flash,
    body,
    heading,
  });
}

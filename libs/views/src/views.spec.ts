import { describe, expect, it } from 'vitest';
import { checkboxGroup, inputField, secretField } from './forms.js';
import { badge, when } from './feedback.js';
import { html } from './html.js';
import { renderPage } from './layout.js';
import { listUrl, pager, table } from './tables.js';

describe('forms', () => {
  it('ties a field error to its control and keeps what was typed', () => {
    const out = inputField({ name: 'email', label: 'Email', value: 'pat@<x>', hint: 'Work address', error: 'Not an email address.' }).value;
    expect(out).toContain('<label for="email">Email</label>');
    expect(out).toContain('aria-invalid="true"');
    expect(out).toContain('aria-describedby="email-hint email-error"');
    expect(out).toContain('<p class="field-error" id="email-error">Not an email address.</p>');
    expect(out).toContain('value="pat@&lt;x&gt;"');
  });

  it('never writes a password back, and marks valid fields as nothing', () => {
    const out = secretField({ name: 'password', label: 'Password', autocomplete: 'current-password' }).value;
    expect(out).not.toContain('value=');
    expect(out).not.toContain('aria-invalid');
    expect(out).not.toContain('aria-describedby');
  });

  it('groups checkboxes under a legend, each with its own label', () => {
    const out = checkboxGroup({
      name: 'roles',
      label: 'Roles',
      options: [
        { value: 'Auditor', label: 'Auditor' },
        { value: 'ITDepartment', label: 'IT department' },
      ],
      values: ['Auditor'],
    }).value;
    expect(out).toContain('<legend>Roles</legend>');
    expect(out).toMatch(/id="roles-0"[^>]*value="Auditor"\s+checked/);
    expect(out).toContain('<label for="roles-1"');
  });
});

describe('tables and paging', () => {
  it('keeps the filters in both paging links and drops empty ones', () => {
    expect(listUrl('/console/users', { status: 'active', q: '' })).toBe('/console/users?status=active');
    const out = pager({ path: '/console/audit', filters: { action: 'user.*' }, newer: '', older: 'abc' }).value;
    expect(out).toContain('href="/console/audit?action=user.*" rel="prev"');
    expect(out).toContain('href="/console/audit?action=user.*&amp;after=abc" rel="next"');
    expect(pager({ path: '/x', filters: {} }).value).toBe('');
  });

  it('says what to do when a list is empty, and labels cells for narrow screens', () => {
    const columns = [{ header: 'Name', cell: (r: { n: string }) => r.n }];
    expect(table({ caption: 'Users', columns, rows: [], empty: 'No users yet.' }).value).toContain('No users yet.');
    expect(table({ caption: 'Users', columns, rows: [{ n: 'Pat' }], empty: '' }).value).toContain('data-label="Name"');
  });
});

describe('layout', () => {
  const frame = {
    title: 'Overview',
    site: 'Gatehouse console',
    brand: { label: 'Gatehouse', href: '/console' },
    stylesheet: '/console/assets/gatehouse.css',
    navPlacement: 'side' as const,
    navLabel: 'Console',
    nav: [
      { label: 'Overview', href: '/console', current: true },
      { label: 'Clients', href: '/console/clients', count: 3, countLabel: 'need attention' },
    ],
    account: { name: 'Ada', detail: 'Tenant acme', signOut: { action: '/console/logout', csrf: 't0k', label: 'Sign out' } },
    body: html`<p>Hello</p>`,
  };

  it('renders one h1, the navigation passed in with counts, and a Sign out form with CSRF', () => {
    const page = renderPage(frame);
    expect(page.match(/<h1>/g)).toHaveLength(1);
    expect(page).toContain('aria-current="page"');
    expect(page).toMatch(/3<span class="visually-hidden"> need attention<\/span>/);
    expect(page).toContain('<input type="hidden" name="_csrf" value="t0k" />');
    expect(page).toContain('<details class="menu narrow-only">');
    expect(page).not.toMatch(/<script>|style=/);
  });
});

describe('words', () => {
  it('says times as people read them and statuses as text', () => {
    const now = new Date('2026-11-28T14:00:00Z');
    expect(when(new Date('2026-12-01T14:00:00Z'), now)).toBe('in 3 days (2026-12-01 14:00 UTC)');
    expect(when(new Date('2026-11-28T13:55:00Z'), now)).toBe('5 minutes ago (2026-11-28 13:55 UTC)');
    expect(badge('locked', 'bad').value).toBe('<span class="badge bad">locked</span>');
  });
});

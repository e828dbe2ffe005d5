import { describe, expect, it } from 'vitest';
import {
  accessRequestApprovedEmail,
  accessRequestRejectedEmail,
  accessRequestSubmittedEmail,
  handoverEmail,
  requestedWhat,
} from './request-templates.js';
import { mailTime } from './templates.js';

describe('access request and handover mails', () => {
  it('name the tenant in the subject and the body, in text and HTML', () => {
    const mail = accessRequestRejectedEmail({
      tenantName: 'Acme',
      requesterName: 'Pat',
      what: 'a personal account',
      note: 'No.',
    });
    expect(mail.subject).toBe('Acme: your access request was not approved');
    expect(mail.text).toContain('Reason given by the contact person: No.');
    expect(mail.text.trimEnd().endsWith('-- Acme')).toBe(true);
    expect(mail.html).toContain('<strong>Acme</strong>');
  });

  it('name the person who decided, and say which one link sets the password', () => {
    const decider = { name: 'Carla Contact', email: 'carla@acme.example' };
    const rejected = accessRequestRejectedEmail({ tenantName: 'Acme', requesterName: 'Pat', what: 'an account', note: 'No.', decider });
    expect(rejected.text).toContain('Reason given by Carla Contact: No.');
    expect(rejected.text).toContain('If you have questions, write to Carla Contact <carla@acme.example>.');
    const approved = (invited: boolean) =>
      accessRequestApprovedEmail({ tenantName: 'Acme', requesterName: 'Pat', username: 'pat', invited, note: 'Hi', decider }).text;
    expect(approved(true)).toContain('choose your password there, then accept the invitation');
    expect(approved(false)).toContain('A separate mail brings the link to choose your password');
    expect(approved(true)).toContain('was approved by Carla Contact.');
    expect(approved(true)).toContain('Note from Carla Contact: Hi');
  });

  it('escape what requesters typed, and keep subjects on one line', () => {
    const mail = accessRequestSubmittedEmail({
      tenantName: 'Acme',
      requestId: 'r1',
      requesterName: '<img src=x onerror=alert(1)>',
      requesterEmail: 'pat@partner.example',
      organisation: 'Evil\r\nBcc: all@example.com',
      what: 'API access for <b>x</b>',
    });
    expect(mail.html).not.toMatch(/<img|<b>/);
    expect(mail.html).toContain('&lt;img src=x');
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it('carry the handover link, never a secret, with the expiry in UTC', () => {
    const expiresAt = new Date('2026-12-01T14:00:00Z');
    const link = 'https://id.example.com/handover/tok';
    const mail = handoverEmail({ tenantName: 'Acme', clientName: 'Sync', clientId: 'c1', link, expiresAt });
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.text).toContain('2026-12-01 14:00 UTC');
    expect(mailTime(expiresAt)).toBe('2026-12-01 14:00 UTC');
  });

  it('say what was asked for in words', () => {
    expect(requestedWhat({ account: true, systemName: null })).toBe('a personal account');
    expect(requestedWhat({ account: true, systemName: 'Sync' })).toBe('a personal account and API access for Sync');
    expect(requestedWhat({ account: false, systemName: 'Sync' })).toBe('API access for Sync');
  });
});

import { describe, expect, it } from 'vitest';
import {
  KIND_MESSAGE,
  checkAccessRequest,
  checkNote,
  checkRequestField,
  normalizeAccessRequest,
} from './access-request.rules.js';

const valid = {
  requesterName: ' Pat Partner ',
  requesterEmail: 'pat@partner.example',
  organisation: 'Partner Ltd',
  account: { documentation: 'The API guide\nand the FAQ', reason: 'Integration' },
};

describe('access request rules', () => {
  it('accepts a complete request and trims what it stores', () => {
    expect(checkAccessRequest(valid)).toEqual([]);
    expect(normalizeAccessRequest(valid)).toMatchObject({ requesterName: 'Pat Partner', api: null });
  });

  it('refuses CR, LF and NUL in one-line fields and addresses, even at the ends', () => {
    for (const value of ['pat@partner.example\r\n', 'pat@partner.example\nBcc: x@y.z', 'pat@partner.example\u0000']) {
      expect(checkRequestField('requesterEmail', value)).toBe('Enter one email address, such as name@example.com.');
    }
    expect(checkRequestField('requesterName', 'Pat\rPartner')).not.toBeNull();
    expect(checkRequestField('api.systemName', 'Sync\u2028')).not.toBeNull();
  });

  it('refuses several addresses, display names and empty values', () => {
    for (const value of ['a@b.example, c@d.example', 'Pat <pat@partner.example>', '   ', '', 42, undefined]) {
      expect(checkRequestField('requesterEmail', value)).not.toBeNull();
    }
  });

  it('lets text fields hold line breaks but no other control character, and counts code points', () => {
    expect(checkRequestField('account.reason', 'line one\r\nline two\tend')).toBeNull();
    expect(checkRequestField('account.reason', 'bell\u0007')).not.toBeNull();
    expect(checkRequestField('account.reason', '😀'.repeat(2000))).toBeNull();
    expect(checkRequestField('account.reason', '😀'.repeat(2001))).not.toBeNull();
  });

  it('lists every problem at once, and asks for at least one part', () => {
    const problems = checkAccessRequest({
      requesterName: '',
      requesterEmail: 'x',
      organisation: '',
      api: { systemName: '', technicalContactEmail: 'y', purpose: '' },
    });
    expect(problems.map((p) => p.field)).toEqual([
      'requesterName',
      'requesterEmail',
      'organisation',
      'api.systemName',
      'api.technicalContactEmail',
      'api.purpose',
    ]);
    expect(checkAccessRequest({ ...valid, account: null })).toEqual([{ field: 'kind', message: KIND_MESSAGE }]);
  });

  it('a note is optional on approval, required on rejection', () => {
    expect(checkNote(undefined, false)).toBeNull();
    expect(checkNote('  ', false)).toBeNull();
    expect(checkNote('  ', true)).not.toBeNull();
    expect(checkNote('Welcome\nto the team', true)).toBeNull();
    expect(checkNote('x'.repeat(2001), false)).not.toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { fieldLabel, validationWords } from './validation-words.js';

describe('validation messages in plain words', () => {
  it('names a field as a label would', () => {
    expect(fieldLabel('displayName')).toBe('Display name');
    expect(fieldLabel('expiresInDays')).toBe('Expires in days');
    expect(fieldLabel('scopes.0')).toBe('scopes.0');
  });

  it('rephrases the library defaults', () => {
    const label = (p: string) => fieldLabel(p);
    expect(validationWords('maxLength', 'displayName must be shorter than or equal to 200 characters', 'displayName', label('displayName'))).toBe(
      'Display name must be at most 200 characters',
    );
    expect(validationWords('isEmail', 'email must be an email', 'email', 'Email')).toBe('Enter a valid email address');
    expect(validationWords('min', 'expiresInDays must not be less than 1', 'expiresInDays', label('expiresInDays'))).toBe('Expires in days must be at least 1');
    expect(validationWords('minLength', 'title must be longer than or equal to 1 characters', 'title', 'Title')).toBe('Title is required');
  });

  it('keeps a message the DTO wrote, naming the field by its label', () => {
    expect(validationWords('matches', 'slug must be lower-case letters', 'slug', 'Address')).toBe('Address must be lower-case letters');
    expect(validationWords('isUuid', 'each value in ids must be a UUID', 'ids', 'Ids')).toBe('each value in ids must be a UUID');
  });
});

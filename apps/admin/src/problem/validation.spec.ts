import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { CreateInvitationDto } from '../dto/invitations.dto.js';
import { CreateUserDto, UpdateUserDto } from '../dto/users.dto.js';
import { ValidationFailedError } from './problem.js';
import { createValidationPipe } from './validation.js';

async function refusal(metatype: new () => object, value: unknown): Promise<ValidationFailedError> {
  try {
    await createValidationPipe().transform(value, { type: 'body', metatype });
  } catch (error) {
    if (error instanceof ValidationFailedError) return error;
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('validation problems: one message per field, the first rule that fails', () => {
  it('a missing field says it is required, once', async () => {
    const error = await refusal(CreateUserDto, { username: 'ann', email: 'ann@example.com' });
    expect(error.errors).toEqual([{ field: 'displayName', message: 'displayName is required' }]);
    expect(error.message).toBe('Invalid request: displayName');
  });

  it('a field breaking several rules gets the first in reading order: the type before length and format', async () => {
    const error = await refusal(CreateUserDto, { username: 5, email: ['x'], displayName: '' });
    expect(error.errors).toEqual([
      { field: 'username', message: 'username must be text' },
      { field: 'email', message: 'email must be text' },
      { field: 'displayName', message: 'displayName is required' },
    ]);
    expect(error.message).toBe('Invalid request: username, email, displayName');
  });

  it('lists each field once also for arrays checked item by item, and for unknown fields', async () => {
    const error = await refusal(CreateInvitationDto, { userId: 'x', sections: [5, 'A B'], expiresInHours: 1.5, extra: 1 });
    expect(error.errors).toEqual([
      { field: 'extra', message: 'property extra should not exist' },
      { field: 'userId', message: 'userId must be an id (a UUID)' },
      { field: 'sections', message: 'each value in sections must be a string' },
      { field: 'expiresInHours', message: 'expiresInHours must be a whole number' },
    ]);
  });

  it('an optional field may be left out, but null is a value and checked (a null email was a 500)', async () => {
    const error = await refusal(UpdateUserDto, { email: null, displayName: null });
    expect(error.errors).toEqual([
      { field: 'email', message: 'email must be text' },
      { field: 'displayName', message: 'displayName must be text' },
    ]);
    await expect(createValidationPipe().transform({}, { type: 'body', metatype: UpdateUserDto })).resolves.toEqual({});
  });

  it('says limits in plain words', async () => {
    const error = await refusal(CreateUserDto, { username: 'ann', email: 'nope', displayName: 'x'.repeat(201) });
    expect(error.errors).toEqual([
      { field: 'email', message: 'Enter a valid email address' },
      { field: 'displayName', message: 'displayName must be at most 200 characters' },
    ]);
  });
});

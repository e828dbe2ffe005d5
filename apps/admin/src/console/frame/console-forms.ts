import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { Request } from 'express';
import { type FieldErrors, fieldLabel, validationWords } from '@gatehouse/views';

type FormBody = Record<string, string | string[] | undefined>;

function body(req: Request): FormBody {
  return (req.body as FormBody | undefined) ?? {};
}

/** A form field as one string ('' when absent or repeated). */
export function field(req: Request, name: string): string {
  const value = body(req)[name];
  return typeof value === 'string' ? value : '';
}

/** A field that may repeat (checkboxes), as a list. */
export function fieldList(req: Request, name: string): string[] {
  const value = body(req)[name];
  return typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];
}

/** Every field of the posted form except the CSRF token and the step-up code (to post it again). */
export function formFields(req: Request): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(body(req))) {
    if (name === '_csrf' || name === '_stepup_code' || value === undefined) continue;
    kept[name] = value;
  }
  return kept;
}

/**
 * Validates form (or query) input with the REST API's DTO class (the same rules, the same
 * messages) and returns the converted values (dates, numbers) with the first failing rule of
 * each field, in plain words. `labels` names fields as the form labels them ("since" → "From";
 * by default `displayName` → "Display name"), so a message speaks of the field the person sees.
 */
export async function parseInput<T extends object>(
  dto: new () => T,
  input: Record<string, unknown>,
  labels: Readonly<Record<string, string>> = {},
): Promise<{ value: T; errors: FieldErrors }> {
  const value = plainToInstance(dto, input);
  const errors: FieldErrors = {};
  for (const error of await validate(value, { whitelist: true, forbidNonWhitelisted: true })) {
    const [rule, first] = Object.entries(error.constraints ?? {})[0] ?? [];
    if (!rule || !first || errors[error.property]) continue;
    const label = labels[error.property] ?? fieldLabel(error.property);
    errors[error.property] = sentence(validationWords(rule, first, error.property, label));
  }
  return { value, errors };
}

/** Validates form input with the REST API's DTO class: the first failing rule of each field, or nothing. */
export async function formErrors<T extends object>(dto: new () => T, input: Record<string, unknown>): Promise<FieldErrors> {
  return (await parseInput(dto, input)).errors;
}

/** A query-string parameter as one string ('' when absent or repeated). */
export function queryField(req: Request, name: string): string {
  const value = req.query[name];
  return typeof value === 'string' ? value : '';
}

function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return text.endsWith('.') ? text : `${text}.`;
}

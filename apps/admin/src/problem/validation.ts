import { ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { validationWords } from '@gatehouse/views';
import { type FieldProblem, ValidationFailedError } from './problem.js';

/** Rules about what a value is (checked before how long or what shape it is). */
const TYPE_RULES = new Set(['whitelistValidation', 'isDefined', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isDate', 'isObject']);

/**
 * The one message of a field: "is required" when it is missing, else the first rule it breaks —
 * a type rule before any other, then in the order the DTO reads (decorators apply bottom-up, so
 * class-validator lists them last-first).
 */
function firstProblem(error: ValidationError, field: string): FieldProblem[] {
  const rules = Object.entries(error.constraints ?? {}).reverse();
  if (rules.length === 0) return [];
  if (error.value === undefined && !error.constraints?.whitelistValidation) return [{ field, message: `${field} is required` }];
  const [rule, message] = rules.find(([name]) => TYPE_RULES.has(name)) ?? rules[0]!;
  return [{ field, message: validationWords(rule, message, error.property, error.property) }];
}

function flatten(errors: ValidationError[], prefix = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    return [...firstProblem(error, field), ...flatten(error.children ?? [], field)];
  });
}

/**
 * The one validation pipe: unknown fields refused, explicit conversions only, one message per
 * field. Values stay in the validation errors only to tell a missing field; answers never echo them.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    forbidUnknownValues: true,
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => new ValidationFailedError(flatten(errors)),
  });
}

import { Controller, UseFilters, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ConsoleGuard } from './console.guard.js';
import { ConsoleFilter } from './console.filter.js';

/** Both places a console page lives: `/console/{path}` (the UI tenant) and `/t/{tenant}/console/{path}`. */
export function consolePaths(path: string): string[] {
  const rest = path ? `/${path}` : '';
  return [`console${rest}`, `t/:tenant/console${rest}`];
}

/**
 * A controller of console pages: served under both console paths, every handler behind the console
 * guard (see {@link ConsolePage}), errors rendered as pages, kept out of the OpenAPI document.
 */
export function ConsoleController(path: string): ClassDecorator {
  return applyDecorators(Controller(consolePaths(path)), UseGuards(ConsoleGuard), UseFilters(ConsoleFilter), ApiExcludeController());
}

/** A controller of the sign-in steps: both console paths, pages for errors, no guard. */
export function ConsoleSignInController(path = ''): ClassDecorator {
  return applyDecorators(Controller(consolePaths(path)), UseFilters(ConsoleFilter), ApiExcludeController());
}

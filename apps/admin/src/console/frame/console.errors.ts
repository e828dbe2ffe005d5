import type { SafeHtml } from '@gatehouse/views';

/** Leave for another page: a 303 after a POST, or to the sign-in. */
export class ConsoleRedirect extends Error {
  constructor(readonly location: string) {
    super(location);
    this.name = 'ConsoleRedirect';
  }
}

/** A refusal or failure shown as a page with its status. */
export class ConsolePageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string | SafeHtml,
  ) {
    super(typeof detail === 'string' ? detail : title);
    this.name = 'ConsolePageError';
  }
}

/**
 * A sensitive action arrived with a second factor older than five minutes: the filter asks for a
 * code and posts the same form again (its fields kept), so nothing typed is lost.
 */
export class StepUpRequired extends Error {
  constructor(
    readonly action: string,
    readonly fields: Record<string, string | string[]>,
    readonly error?: string,
  ) {
    super('A fresh second factor is needed for this action.');
    this.name = 'StepUpRequired';
  }
}

export const forbiddenForm = () =>
  new ConsolePageError(
    403,
    'Request refused',
    'The form could not be accepted: it has expired or did not come from this console. Go back, reload the page and try again.',
  );

export const notPermitted = () =>
  new ConsolePageError(403, 'Not allowed', 'Your roles do not include this page or action. Nothing was changed.');

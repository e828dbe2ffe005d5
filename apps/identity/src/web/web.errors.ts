import type { SafeHtml } from '@gatehouse/views';

/** A page that refuses or fails, rendered by the web filter with its status. */
export class WebPageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string | SafeHtml,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : title);
    this.name = 'WebPageError';
  }
}

export const forbiddenForm = () =>
  new WebPageError(
    403,
    'Request refused',
    'The form could not be accepted: it has expired or did not come from this site. Go back, reload the page and try again.',
  );
export const notFound = () =>
  new WebPageError(404, 'Page not found', 'There is no such page, or it is not open to you.');
export const notSetUp = () =>
  new WebPageError(503, 'Not available', 'This service is not set up yet. Please contact your contact person.');

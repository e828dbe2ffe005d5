import type { Crumb, FieldErrors, SafeHtml } from '@gatehouse/views';
import type { ConsoleView } from './console-responder.js';

/** A page holding a form: 200 when first shown, 400 when it comes back with what was wrong. */
export function formView(input: {
  title: string;
  breadcrumbs: Crumb[];
  body: SafeHtml;
  errors: FieldErrors;
  error?: string;
}): ConsoleView {
  const refused = Boolean(input.error) || Object.keys(input.errors).length > 0;
  return { title: input.title, breadcrumbs: input.breadcrumbs, body: input.body, status: refused ? 400 : 200 };
}

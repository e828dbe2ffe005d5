import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { type SafeHtml, trusted } from './html.js';

const ALLOWED = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'h1', 'h2', 'img'],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title'],
    code: ['class'],
    th: ['align'],
    td: ['align'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

/** Markdown of a documentation section as HTML, sanitized: no script, no style, no event handler. */
export function renderMarkdown(markdown: string): SafeHtml {
  const rendered = marked.parse(markdown, { async: false, gfm: true });
  return trusted(sanitizeHtml(rendered, ALLOWED));
}

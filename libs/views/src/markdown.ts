import { Lexer, type Token, type Tokens, marked } from 'marked';
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

function sanitized(tokens: Token[]): SafeHtml {
  const rendered = marked.parser(tokens as Parameters<typeof marked.parser>[0], { async: false, gfm: true });
  return trusted(sanitizeHtml(rendered, ALLOWED));
}

/** Markdown of a documentation section as HTML, sanitized: no script, no style, no event handler. */
export function renderMarkdown(markdown: string): SafeHtml {
  return sanitized(new Lexer({ gfm: true }).lex(markdown));
}

const plain = (text: string) => text.replace(/[*_`~]/g, '').trim().toLowerCase();

/**
 * A section's body under a page whose `h1` is already the section title: a leading `# Title` that
 * repeats it is dropped, and any other level-1 heading becomes level 2 (one `h1` per page).
 */
export function renderSection(markdown: string, title: string): SafeHtml {
  const tokens: Token[] = new Lexer({ gfm: true }).lex(markdown);
  const first = tokens.findIndex((token) => token.type !== 'space');
  const lead = tokens[first] as Tokens.Heading | undefined;
  if (lead?.type === 'heading' && lead.depth === 1 && plain(lead.text) === plain(title)) tokens.splice(first, 1);
  for (const token of tokens) if (token.type === 'heading' && (token as Tokens.Heading).depth === 1) (token as Tokens.Heading).depth = 2;
  return sanitized(tokens);
}

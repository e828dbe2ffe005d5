import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderSection } from './markdown.js';

describe('renderMarkdown', () => {
  it('renders Markdown', () => {
    expect(renderMarkdown('# Title\n\nSome *text* and [a link](https://example.com).').value).toContain(
      '<em>text</em>',
    );
  });

  it('removes scripts, handlers, styles and javascript: links', () => {
    const out = renderMarkdown(
      '<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a><p style="color:red">p</p>[y](javascript:alert(2))',
    ).value;
    expect(out).not.toMatch(/<script|onerror=|href="javascript|style=/i);
  });
});

describe('renderSection', () => {
  it('drops a leading heading that repeats the title and keeps one h1 per page', () => {
    const out = renderSection('# Getting **started**\n\nHello.\n\n# Next steps\n\nMore.', 'Getting started').value;
    expect(out).not.toContain('Getting');
    expect(out).not.toContain('<h1');
    expect(out).toContain('<h2>Next steps</h2>');
  });

  it('keeps a leading heading that says something else, as an h2', () => {
    expect(renderSection('# Welcome\n\nText', 'Getting started').value).toContain('<h2>Welcome</h2>');
  });
});

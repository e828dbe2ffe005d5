import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

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

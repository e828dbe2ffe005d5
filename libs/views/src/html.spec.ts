import { describe, expect, it } from 'vitest';
import { html, trusted } from './html.js';

describe('html', () => {
  it('escapes every interpolation, nested lists too', () => {
    const name = `<script>alert("x")</script>&'`;
    const paragraph = html`<p>${name}</p>`;
    expect(paragraph.value).toBe('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>');
    const item = html`<li>${'<b>'}</li>`;
    const list = html`${['<a>', item]}`;
    expect(list.value).toBe('&lt;a&gt;<li>&lt;b&gt;</li>');
  });

  it('leaves trusted markup and drops null, undefined and false', () => {
    const out = html`${trusted('<em>x</em>')}${null}${undefined}${false}${0}`;
    expect(out.value).toBe('<em>x</em>0');
  });
});

import { describe, expect, it } from 'vitest';
import { escapeHtml, isSafeHref } from './markdown-policy.js';

describe('isSafeHref', () => {
  it('keeps http, https and mailto links', () => {
    expect(isSafeHref('https://example.com/a')).toBe(true);
    expect(isSafeHref('HTTP://example.com')).toBe(true);
    expect(isSafeHref('mailto:a@b.c')).toBe(true);
  });

  it('refuses script, data and relative links, even disguised', () => {
    for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>', 'vbscript:x', '/relative', '#top', '//evil.example']) {
      expect(isSafeHref(href), href).toBe(false);
    }
  });
});

describe('escapeHtml', () => {
  it('escapes every HTML metacharacter', () => {
    expect(escapeHtml(`<img src=x onerror="alert('1')">&`)).toBe('&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;');
  });
});

/** The auto-escaping HTML renderer: what each kind of value becomes in a template. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HtmlValue } from '../../src/web/html.ts';
import { escapeHtml, html, SafeHtml, trustedHtml } from '../../src/web/html.ts';

const cases: { name: string; value: HtmlValue; want: string }[] = [
  {
    name: 'text is escaped',
    value: `<script>alert("x")</script>`,
    want: '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;',
  },
  { name: 'ampersands and single quotes', value: `Smith & Jones' `, want: 'Smith &amp; Jones&#39; ' },
  { name: 'numbers as text', value: 1234.5, want: '1234.5' },
  { name: 'null renders nothing', value: null, want: '' },
  { name: 'undefined renders nothing', value: undefined, want: '' },
  { name: 'false renders nothing', value: false, want: '' },
  { name: 'true renders as text', value: true, want: 'true' },
  { name: 'a nested template is taken as it is', value: html`<b>${'<i>'}</b>`, want: '<b>&lt;i&gt;</b>' },
  { name: 'trusted markup is taken as it is', value: trustedHtml('<svg></svg>'), want: '<svg></svg>' },
  { name: 'arrays are joined, each escaped', value: ['<a>', html`<br />`, null, 2], want: '&lt;a&gt;<br />2' },
];

for (const { name, value, want } of cases)
  test(`html: ${name}`, () => {
    assert.equal(html`[${value}]`.text, `[${want}]`);
  });

test('an attribute value cannot be closed by the text put in it', () => {
  assert.equal(html`<input value="${'" onfocus="x'}" />`.text, '<input value="&quot; onfocus=&quot;x" />');
});

test('html gives SafeHtml, and escapeHtml leaves plain text alone', () => {
  assert.ok(html`x` instanceof SafeHtml);
  assert.equal(escapeHtml('TESCO PLC'), 'TESCO PLC');
});

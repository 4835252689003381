/**
 * Data written into Markdown is literal text: nothing a company, a PSC or a caller writes becomes a
 * link, an image, emphasis, a table cell, a line of its own or an HTML tag.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { facts, literal, markup, table } from '../../src/operations/markdown.ts';

const cases: { name: string; input: unknown; want: string }[] = [
  {
    name: 'a link, pipes and brackets',
    input: '[Click me](javascript:alert(4)) | PIPE | LTD',
    want: '\\[Click me\\](javascript:alert(4)) \\| PIPE \\| LTD',
  },
  { name: 'a script tag', input: '<script>alert(1)</script>', want: '&lt;script&gt;alert(1)&lt;/script&gt;' },
  { name: 'an autolink', input: '<javascript:alert(1)>', want: '&lt;javascript:alert(1)&gt;' },
  { name: 'an image', input: '![x](http://e.vil/x.png)', want: '!\\[x\\](http://e.vil/x.png)' },
  {
    name: 'emphasis and code',
    input: '**BOLD** _IT_ `CODE` ~~X~~',
    want: '\\*\\*BOLD\\*\\* \\_IT\\_ \\`CODE\\` \\~\\~X\\~\\~',
  },
  {
    name: 'an entity that would decode to a tag',
    input: '&lt;b&gt; &#60;i>',
    want: '&amp;lt;b&amp;gt; &amp;#60;i&gt;',
  },
  { name: 'a plain ampersand stays', input: 'SMITH & CO (UK) LTD.', want: 'SMITH & CO (UK) LTD.' },
  { name: 'an underscore inside a word stays', input: 'net_assets 0123_2024.html', want: 'net_assets 0123_2024.html' },
  { name: 'a backslash', input: 'A\\B', want: 'A\\\\B' },
  { name: 'line breaks cannot start a block', input: 'A\n# HEADING\r\n- item', want: 'A # HEADING - item' },
  { name: 'a number', input: 42, want: '42' },
];

for (const { name, input, want } of cases) test(`literal: ${name}`, () => assert.equal(literal(input), want));

test('table cells and facts are literal; markup written by a renderer is kept', () => {
  const hostile = '[Click me](javascript:alert(4)) | PIPE | LTD';
  assert.equal(
    table(['Name', 'Note'], [[hostile, markup('**overdue**')]]),
    '| Name | Note |\n|---|---|\n| \\[Click me\\](javascript:alert(4)) \\| PIPE \\| LTD | **overdue** |',
  );
  assert.equal(facts([['Name', '<script>']]), '- **Name:** &lt;script&gt;');
});

/**
 * The HTML renderer of the web pages: a tagged template that escapes every interpolated value, so
 * text from the register (a company's name, an address) can never become markup. Only values that
 * are already SafeHtml (another `html` template, or `trustedHtml` for markup we wrote) go in as
 * they are; arrays are joined, and null, undefined and false render as nothing.
 */

/** Markup that is safe to send as it is. Made only by `html` and `trustedHtml`. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template accepts in a `${…}` slot. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text escaped for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value as string | number | true));
}

/** `html\`<p>${name}</p>\`` : the literal parts as written, every value escaped (unless SafeHtml). */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** Markup written by this service (an SVG built from numbers), taken as it is. Never for input. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/**
 * Small string helpers for writing XML and XHTML fast: escaping and the number spellings of
 * printed accounts. No DOM; everything is string concatenation.
 */

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escape text or an attribute value. */
export function escapeXml(text: string): string {
  // Most names need nothing, and the test is much cheaper than the replace.
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!) : text;
}

/** "1,234,567" for a whole number's magnitude. */
export function groupedDigits(value: number): string {
  const digits = String(Math.abs(Math.round(value)));
  if (digits.length <= 3) return digits;
  let out = '';
  const head = digits.length % 3;
  if (head > 0) out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) {
    out += (out ? ',' : '') + digits.slice(i, i + 3);
  }
  return out;
}

/** A printed amount as accounts show it outside XBRL: "1,234", "(1,234)", "-". */
export function printedAmount(value: number, scale: number): string {
  if (value === 0) return '-';
  const shown = groupedDigits(value / 10 ** scale);
  return value < 0 ? `(${shown})` : shown;
}

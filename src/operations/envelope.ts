/**
 * The lines every answer carries: where the data comes from and what it is not.
 */
import * as z from 'zod';

export const SOURCE =
  'Companies House register, persons with significant control, iXBRL bulk accounts data and scanned accounts PDFs, Open Government Licence v3.0';
export const NOTE =
  'Figures as filed, in GBP; null means not filed; figures marked pdf_ocr are estimates read from scanned PDFs. Not a credit rating.';

export function withEnvelope<T extends object>(body: T): T & { source: string; note: string } {
  return { ...body, source: SOURCE, note: NOTE };
}

/** An operation's output schema with the envelope: the JSON REST answers and MCP's structuredContent. */
export function withEnvelopeSchema<Output extends z.ZodObject>(output: Output) {
  return output.extend({
    source: z.literal(SOURCE).describe('Where the data comes from'),
    note: z.literal(NOTE).describe('How to read the figures'),
  });
}

/** The Markdown shape of every REST answer, and exactly what an MCP tool returns. */
export interface MarkdownContent {
  content: [{ type: 'text'; text: string }];
}

export function markdownContent(markdown: string): MarkdownContent {
  return { content: [{ type: 'text', text: `${markdown.trimEnd()}\n\n_Source: ${SOURCE}._  \n_${NOTE}_\n` }] };
}

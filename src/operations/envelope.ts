/**
 * The lines every answer carries: where the data comes from, what it is not, and how fresh it is.
 */
import * as z from 'zod';

export const SOURCE =
  'Companies House register, persons with significant control, iXBRL bulk accounts data and scanned accounts PDFs, Open Government Licence v3.0';
export const NOTE =
  'Figures as filed, in GBP; null means not filed; figures marked pdf_ocr are estimates read from scanned PDFs. Not a credit rating.';

/**
 * How fresh the data behind an answer is: how far the loads and the streams have reached. The
 * same for every answer of a moment, whatever the operation; read by the call pipeline
 * (src/call/as-of.ts). One description for the whole object: it is in every tool's outputSchema.
 */
const asOfOutput = z
  .object({
    register: z.string().nullable(),
    accounts: z.string().nullable(),
    psc: z.string().nullable(),
    stream: z.object({ name: z.string(), published_at: z.string() }).nullable(),
  })
  .describe(
    'Data freshness: newest register and PSC snapshot and accounts publication dates loaded, newest stream event applied (UTC); null: none',
  );

export type AsOf = z.output<typeof asOfOutput>;

export function withEnvelope<T extends object>(body: T, asOf: AsOf): T & { source: string; note: string; as_of: AsOf } {
  return { ...body, source: SOURCE, note: NOTE, as_of: asOf };
}

/** An operation's output schema with the envelope: the JSON REST answers and MCP's structuredContent. */
export function withEnvelopeSchema<Output extends z.ZodObject>(output: Output) {
  return output.extend({
    source: z.literal(SOURCE).describe('Where the data comes from'),
    note: z.literal(NOTE).describe('How to read the figures'),
    as_of: asOfOutput,
  });
}

/** The Markdown shape of every REST answer, and exactly what an MCP tool returns. */
export interface MarkdownContent {
  content: [{ type: 'text'; text: string }];
}

export function markdownContent(markdown: string, asOf: AsOf): MarkdownContent {
  return {
    content: [
      {
        type: 'text',
        text: `${markdown.trimEnd()}\n\n_${asOfLine(asOf)}._\n\n_Source: ${SOURCE}._  \n_${NOTE}_\n`,
      },
    ],
  };
}

/**
 * One line for a reader: "Data as of: register 2026-11-01, accounts 2026-11-26, PSC 2026-11-20,
 * stream 2026-11-27 04:10 UTC": the Markdown answers' line, and the web pages' footer. Only
 * digits, dashes and a stream's name (a path segment of ours) go into it, so it needs no escaping.
 */
export function asOfLine(asOf: AsOf): string {
  const loaded = (date: string | null) => date ?? 'none loaded';
  const stream = asOf.stream
    ? `${asOf.stream.published_at.slice(0, 16).replace('T', ' ')} UTC (${asOf.stream.name})`
    : 'not followed';
  return `Data as of: register ${loaded(asOf.register)}, accounts ${loaded(asOf.accounts)}, PSC ${loaded(asOf.psc)}, stream ${stream}`;
}

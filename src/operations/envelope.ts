/**
 * The lines every answer carries: where the data comes from and what it is not.
 */
export const SOURCE = 'Companies House register and iXBRL bulk accounts data, Open Government Licence v3.0';
export const NOTE = 'Figures as filed, in GBP; null means not filed. Not a credit rating.';

export function withEnvelope<T extends object>(body: T): T & { source: string; note: string } {
  return { ...body, source: SOURCE, note: NOTE };
}

/** The Markdown shape of every REST answer, and exactly what an MCP tool returns. */
export interface MarkdownContent {
  content: [{ type: 'text'; text: string }];
}

export function markdownContent(markdown: string): MarkdownContent {
  return { content: [{ type: 'text', text: `${markdown.trimEnd()}\n\n_Source: ${SOURCE}._  \n_${NOTE}_\n` }] };
}

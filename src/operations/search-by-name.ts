import * as z from 'zod';
import type { NameSearchHit } from '../domain/name-search.ts';
import { limitInput, textInput } from './inputs.ts';
import { literal, table } from './markdown.ts';
import { nameQuery } from '../domain/name-search.ts';
import { cursorInput, decodeCursor, encodeCursor, nameKeySchema, pageLine } from './cursor.ts';
import { defineOperation } from './operation.ts';
import { searchByNameOutput } from './outputs.ts';

export const searchByName = defineOperation({
  name: 'search_by_name',
  title: 'Find companies by name',
  description:
    'Find UK companies by name, as you would type it: legal suffixes (LTD, PLC, LLP…), case, punctuation and ' +
    '&/and are ignored, and each word may be the start of a word ("tesc sto" finds TESCO STORES). name 1–200 ' +
    'characters; limit 1–100 (default 20). Ranked: the exact name first, active companies before dissolved, ' +
    'names starting with the phrase, then containing it, then other word matches. Returns `query` and up to ' +
    '`limit` results (number, name, status, type, post town, incorporated, SIC codes), `total` (every name ' +
    'matching the words) and `next`: send it as `cursor` with the same name for the following page (null on ' +
    'the last). `near_matches`: names a letter or two off ("tesoc": TESCO) when nothing matches. ' +
    'Use lookup_company on a number for its figures. Costs one request of your monthly quota a page.',
  http: { method: 'GET', path: '/v1/search-by-name' },
  input: z.object({
    name: textInput(200).describe('The name or part of it, 1–200 characters'),
    limit: limitInput(100, 20),
    cursor: cursorInput,
  }),
  output: searchByNameOutput,
  json: true,
  async run(
    deps,
    input,
  ): Promise<{
    query: string;
    results: NameSearchHit[];
    total: number;
    next: string | null;
    near_matches: NameSearchHit[];
  }> {
    // Bound to the name as searched (case, punctuation and suffixes aside, the same query).
    const query = nameQuery(input.name).phrase;
    const after = decodeCursor(input.cursor, { operation: 'search_by_name', query, key: nameKeySchema });
    const page = await deps.search.searchByName(input.name, input.limit, after);
    return {
      query: input.name,
      results: page.hits,
      total: page.total,
      next: encodeCursor('search_by_name', query, page.next),
      near_matches: page.near,
    };
  },
  toMarkdown(result) {
    const columns = ['Number', 'Name', 'Status', 'Type', 'Post town', 'Incorporated'];
    const rows = (hits: readonly NameSearchHit[]) =>
      hits.map((r) => [r.company_number, r.name, r.status, r.type, r.post_town, r.incorporated]);
    return [
      `# Companies named like "${literal(result.query)}"`,
      table(columns, rows(result.results)),
      pageLine(result.results.length, result.total, result.next),
      ...(result.near_matches.length > 0
        ? ['## Near matches (a letter or two different)', table(columns, rows(result.near_matches))]
        : []),
    ].join('\n\n');
  },
});

import * as z from 'zod';
import { explainTrigger, TRIGGERS, TRIGGER_ORDER } from '../domain/triggers.ts';
import { checkFilterRanges, companyFilters, filterEcho, filterShape, growthAsked, limitInput } from './inputs.ts';
import { money, table } from './markdown.ts';
import { companyKeySchema, cursorInput, decodeCursor, encodeCursor, pageLine } from './cursor.ts';
import { defineOperation } from './operation.ts';
import { findTriggersOutput } from './outputs.ts';
import { companyResult, estimatesNote, estimatesUsed } from './search-companies.ts';

export const findTriggers = defineOperation({
  name: 'find_triggers',
  title: 'Find companies meeting a sales trigger',
  description:
    'Companies that meet a trigger, strongest first, with the reason in words and its figures. ' +
    'trigger (required): cash_rich (cash ≥ £500k and ≥ 40% of current assets), ' +
    'rapid_growth (net assets up ≥ 30% on prior net assets of at least £10k), ' +
    'hiring (employees up ≥ 20% and by ≥ 5), ' +
    'turned_profitable (profit after a loss), recently_filed (accounts published in the last 30 days), ' +
    'accounts_overdue, distress (negative net assets or cash down ≥ 30%), young_and_funded (incorporated in ' +
    'the last 2 years with net assets ≥ £100k). Optional: every filter of search_companies, with the same ' +
    'names and values (its description lists them; each is described in this input schema), but no sort. ' +
    'limit 1–50 (default 20). Returns `total`, up to ' +
    '`limit` companies and `next` (as `cursor`, same arguments: the next page; null on the last). Costs one ' +
    'request of your monthly quota a page.',
  http: { method: 'GET', path: '/v1/triggers' },
  input: z
    .object({
      trigger: z
        .enum(TRIGGERS, { error: `must be one of ${TRIGGERS.join(', ')}` })
        .describe(`One of ${TRIGGERS.join(', ')}`),
      ...filterShape,
      limit: limitInput(50, 20),
      cursor: cursorInput,
    })
    .superRefine(checkFilterRanges),
  output: findTriggersOutput,
  json: true,
  async run(deps, input, context) {
    const query = { filters: companyFilters(input), trigger: input.trigger, sort: TRIGGER_ORDER[input.trigger] };
    const after = decodeCursor(input.cursor, { operation: 'find_triggers', query, key: companyKeySchema(query.sort) });
    const [matches, used] = await Promise.all([
      deps.search.findCompanies({ ...query, limit: input.limit, asOf: context.today, after }),
      estimatesUsed(deps.search, { ...query, asOf: context.today }),
    ]);
    return {
      trigger: input.trigger,
      criteria: { ...filterEcho(input), limit: input.limit },
      total: matches.total,
      estimates_used: used,
      results: matches.documents.map((doc) => ({
        ...companyResult(doc, context.today, growthAsked(query.filters)),
        ...explainTrigger(input.trigger, doc, context.today),
      })),
      next: encodeCursor('find_triggers', query, matches.next),
    };
  },
  toMarkdown(result) {
    return [
      `# Trigger ${result.trigger}: ${result.total.toLocaleString('en-GB')} compan${result.total === 1 ? 'y' : 'ies'}`,
      ...(result.estimates_used ? [estimatesNote(true).trim()] : []),
      table(
        ['Number', 'Name', 'Post town', 'Reason', 'Net assets', 'Cash'],
        result.results.map((r) => [
          r.company_number,
          r.name,
          r.post_town,
          r.reason,
          money(r.net_assets),
          money(r.cash),
        ]),
      ),
      pageLine(result.results.length, result.total, result.next),
    ].join('\n\n');
  },
});

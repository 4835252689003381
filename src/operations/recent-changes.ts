import * as z from 'zod';
import { limitInput } from './inputs.ts';
import { money, table } from './markdown.ts';
import { cursorInput, decodeCursor, encodeCursor, pageLine, recentFilingKeySchema } from './cursor.ts';
import { defineOperation } from './operation.ts';
import { recentChangesOutput } from './outputs.ts';

export const recentChanges = defineOperation({
  name: 'recent_changes',
  title: 'Recently published accounts',
  description:
    'Accounts filings published in the last `days` days (1–90, default 30), newest publication first, then by ' +
    'company number; limit 1–200 (default 30). Returns `days`, `since` (the first day counted), the filings ' +
    '(company number, name, publication date, balance sheet date, net assets, cash and turnover), `total` ' +
    '(every filing since then) and `next`: send it as `cursor` with the same days for the following page ' +
    '(null on the last). Costs one request of your monthly quota a page.',
  http: { method: 'GET', path: '/v1/recent-changes' },
  input: z.object({
    days: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(90, 'must be at most 90')
      .default(30)
      .describe('How many days back, 1–90 (default 30)'),
    limit: limitInput(200, 30),
    cursor: cursorInput,
  }),
  output: recentChangesOutput,
  json: true,
  async run(deps, input, context) {
    // From `days` days before today, inclusive, as recently_filed counts its 30 days.
    const since = new Date(Date.parse(context.today) - input.days * 86_400_000).toISOString().slice(0, 10);
    const query = { days: input.days };
    const after = decodeCursor(input.cursor, { operation: 'recent_changes', query, key: recentFilingKeySchema });
    const page = await deps.store.recentFilings(since, input.limit, after);
    return {
      days: input.days,
      since,
      filings: page.filings,
      total: page.total,
      next: encodeCursor('recent_changes', query, page.next),
    };
  },
  toMarkdown(result) {
    return [
      `# Accounts published since ${result.since} (${result.days} day${result.days === 1 ? '' : 's'})`,
      table(
        ['Published', 'Number', 'Name', 'Balance sheet date', 'Net assets', 'Cash', 'Turnover'],
        result.filings.map((f) => [
          f.published,
          f.company_number,
          f.name,
          f.balance_sheet_date,
          money(f.net_assets),
          money(f.cash),
          money(f.turnover),
        ]),
      ),
      pageLine(result.filings.length, result.total, result.next),
    ].join('\n\n');
  },
});

/**
 * Whether a PSC load read the whole snapshot (psc-totals.ts): a table of what was read and what
 * the names and flags say, against the reason given (null: whole).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { whyPscLoadPartial } from '../../loaders/psc-totals.ts';
import type { PscCompletenessInput } from '../../loaders/psc-totals.ts';

const totals = (pscs: number, statements = 0, exemptions = 0) => ({
  kind: 'totals#persons-of-significant-control-snapshot',
  persons_of_significant_control_count: pscs,
  statements_count: statements,
  exemptions_count: exemptions,
});
const read = (records: number, rejected = 0, t: Record<string, unknown> | null = totals(records)) => ({
  records,
  rejected,
  totals: t,
});

describe('is a PSC load the whole snapshot', () => {
  const cases: { name: string; input: PscCompletenessInput; want: RegExp | null }[] = [
    {
      name: 'named whole, totals met, nothing rejected',
      input: { forced: undefined, incomplete: null, read: read(5) },
      want: null,
    },
    {
      name: 'totals across kinds',
      input: { forced: undefined, incomplete: null, read: read(6, 0, totals(3, 2, 1)) },
      want: null,
    },
    {
      name: 'lines missing',
      input: { forced: undefined, incomplete: null, read: read(4, 0, totals(5)) },
      want: /counts 5 records \(5 PSCs, 0 statements, 0 exemptions\) but 4 were read: lines are missing/,
    },
    {
      name: 'lines added',
      input: { forced: undefined, incomplete: null, read: read(6, 0, totals(5)) },
      want: /but 6 were read: lines are repeated or added/,
    },
    {
      name: 'a rejected line, though the count is met',
      input: { forced: undefined, incomplete: null, read: read(4, 1, totals(5)) },
      want: /^1 line\(s\) rejected/,
    },
    {
      name: 'no totals line',
      input: { forced: undefined, incomplete: null, read: read(5, 0, null) },
      want: /no closing totals line/,
    },
    {
      name: 'no totals line, --complete',
      input: { forced: true, incomplete: null, read: read(5, 0, null) },
      want: null,
    },
    {
      name: 'parts missing, --complete',
      input: { forced: true, incomplete: 'part(s) 2 of 2 not given', read: read(5) },
      want: null,
    },
    {
      name: '--complete does not outweigh a rejected line',
      input: { forced: true, incomplete: null, read: read(4, 1, totals(5)) },
      want: /rejected/,
    },
    {
      name: '--complete does not outweigh totals not met',
      input: { forced: true, incomplete: null, read: read(19, 0, totals(12_799_821, 774_422, 77)) },
      want: /counts 13,574,320 records .* but 19 were read/,
    },
    { name: '--partial', input: { forced: false, incomplete: null, read: read(5) }, want: /--partial/ },
    {
      name: 'parts missing',
      input: { forced: undefined, incomplete: 'part(s) 2 of 2 not given', read: read(5) },
      want: /^part\(s\) 2 of 2 not given$/,
    },
    {
      name: 'counts that are not numbers',
      input: { forced: undefined, incomplete: null, read: read(5, 0, { persons_of_significant_control_count: '5' }) },
      want: /does not give its counts/,
    },
    {
      name: 'two totals lines that disagree',
      input: { forced: undefined, incomplete: null, read: { ...read(5), conflictingTotals: totals(4) } },
      want: /two totals lines/,
    },
  ];
  for (const { name, input, want } of cases) {
    test(name, () => {
      const why = whyPscLoadPartial(input);
      if (want === null) assert.equal(why, null);
      else assert.match(why ?? '(whole)', want);
    });
  }
});

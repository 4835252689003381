/**
 * Every real filing in shared/samples/accounts parses to the values hand-read in MANIFEST.md.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseFiling } from '../../src/accounts/parse-filing.ts';
import type { ParsedFiling } from '../../src/accounts/parse-filing.ts';
import { filingSources } from '../../loaders/filing-sources.ts';
import { readManifest } from '../support/manifest.ts';
import { accountsSamplesDir } from '../support/samples.ts';

const manifest = readManifest();

async function parseSample(file: string): Promise<ParsedFiling> {
  const problems: unknown[] = [];
  const sources = [];
  for await (const source of filingSources([join(accountsSamplesDir, file)], { onProblem: (p) => problems.push(p) })) {
    sources.push(source);
  }
  assert.deepEqual(problems, []);
  assert.equal(sources.length, 1);
  const result = parseFiling(sources[0]!.bytes, sources[0]!.name);
  if (!result.ok) assert.fail(`${file}: ${JSON.stringify(result.failure.error)}`);
  return result.filing;
}

describe('real sample filings match MANIFEST.md', () => {
  test('the manifest lists every sample file', () => {
    const files = readdirSync(accountsSamplesDir).sort();
    assert.deepEqual(manifest.map((row) => row.file).sort(), files);
    assert.equal(manifest.length, 52);
  });

  for (const row of manifest) {
    test(`#${row.index} ${row.file}`, async () => {
      const filing = await parseSample(row.file);
      assert.equal(filing.company_number, row.company_number, 'company_number');
      assert.equal(filing.balance_sheet_date, row.balance_sheet_date, 'balance_sheet_date');
      assert.equal(filing.standard, row.standard, 'standard');
      for (const [key, want] of Object.entries(row.figures)) {
        assert.equal(filing.current[key as keyof typeof filing.current], want, `${key} (manifest notes: ${row.notes})`);
      }
    });
  }
});

describe('sample filings: what the manifest notes call out', () => {
  const cases: { name: string; file: string; check: (filing: ParsedFiling) => void }[] = [
    {
      name: 'fractional employees from scale="-2" carry a quality warning naming the field',
      file: 'Prod223_3384_09355500_20221231.html',
      check: (f) => assert.ok(f.quality.some((q) => q.field === 'employees' && q.period === 'current')),
    },
    {
      name: 'TALCL tagged negative against positive net assets carries a quality warning',
      file: 'Prod223_2125_09208349_20170930.html',
      check: (f) =>
        assert.ok(f.quality.some((q) => q.field === 'total_assets_less_current_liabilities' && q.period === 'current')),
    },
    {
      name: 'a plausible filing carries no quality warning',
      file: 'Prod223_2911_04415655_20201231.html',
      check: (f) => assert.deepEqual(f.quality, []),
    },
    {
      name: 'number without leading zeros in the document is padded',
      file: 'Prod223_2911_00390616_20201231.html',
      check: (f) => {
        assert.equal(f.company_number, '00390616');
        assert.equal(f.company_number_source, 'document');
      },
    },
    {
      name: 'swapped identifier scheme and value still give the number',
      file: 'Prod223_2125_09796632_20180331.html',
      check: (f) => assert.equal(f.company_number, '09796632'),
    },
    {
      name: 'group accounts: consolidated figures are not the company figures',
      file: 'Prod223_2911_05078870_20200930.html',
      check: (f) => {
        assert.equal(f.current.net_assets, 1262403);
        assert.equal(f.current.turnover, null);
      },
    },
    {
      name: 'the prior period comes from the comparative column',
      file: 'Prod224_0042_02771600_20160930.xml',
      check: (f) => {
        assert.equal(f.prior_balance_sheet_date, '2015-09-30');
        assert.equal(f.prior?.net_assets, 219145);
        assert.equal(f.prior?.creditors_within_one_year, 229611);
        assert.equal(f.period_start, '2015-10-01');
      },
    },
    {
      name: 'the period start comes from the year context when no number covers the year',
      file: 'Prod224_0042_00385188_20160831.xml',
      check: (f) => assert.equal(f.period_start, '2015-09-01'),
    },
    {
      name: 'the entity name is read, whitespace collapsed',
      file: 'Prod223_3384_14033910_20220831.html',
      check: (f) => assert.equal(f.entity_name, 'Graham Chisnell Ltd'),
    },
    {
      name: 'a CIC nested zip yields its accounts, not its CIC34 report',
      file: 'Prod223_3951_15052776_20240831_CIC.zip',
      check: (f) => {
        assert.equal(f.file, 'Prod223_3951_15052776_20240831_CIC.zip');
        assert.equal(f.current.net_assets, 3365);
      },
    },
  ];
  for (const c of cases) test(c.name, async () => c.check(await parseSample(c.file)));

  test('every sample parses with a period start or none, never a start after the balance sheet date', async () => {
    for (const row of manifest) {
      const f = await parseSample(row.file);
      if (f.period_start !== null) assert.ok(f.period_start < f.balance_sheet_date, row.file);
      if (f.prior_balance_sheet_date !== null) assert.ok(f.prior_balance_sheet_date < f.balance_sheet_date, row.file);
    }
  });
});

// Guard against the sample folder silently shrinking.
test('sample folder is readable', () => {
  assert.ok(readFileSync(join(accountsSamplesDir, manifest[0]!.file)).length > 0);
});

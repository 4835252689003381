/** The same seed gives the same filings, byte for byte; a filing does not depend on its neighbours. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { syntheticFilings } from '../../src/synthetic/filings.ts';
import type { SyntheticFiling } from '../../src/synthetic/filings.ts';

function take(options: Parameters<typeof syntheticFilings>[0], count = Infinity): SyntheticFiling[] {
  const out: SyntheticFiling[] = [];
  for (const filing of syntheticFilings(options)) {
    if (out.length >= count) break;
    out.push(filing);
  }
  return out;
}

/** What must come out the same: each filing's name, publication date and bytes, in order. */
function fingerprints(filings: readonly SyntheticFiling[]): [string, string, string][] {
  return filings.map((f) => [f.fileName, f.published, f.bytes.toString('base64')]);
}

describe('determinism', () => {
  const cases: { name: string; options: Parameters<typeof syntheticFilings>[0] }[] = [
    { name: 'modern FRS filings', options: { seed: 7, companies: 40, yearsPerCompany: 3 } },
    {
      name: 'older eras, plain XBRL and UK GAAP',
      options: { seed: 7, companies: 40, yearsPerCompany: 4, fromYear: 2010 },
    },
  ];
  for (const { name, options } of cases) {
    test(`same seed, same bytes: ${name}`, () => {
      const first = take(options);
      const second = take(options);
      assert.ok(first.length > 40);
      assert.deepStrictEqual(fingerprints(second), fingerprints(first));
    });
  }

  test('a stream resumed from a publication date is the rest of the whole stream, byte for byte', () => {
    const options = { seed: 7, companies: 60, yearsPerCompany: 2 };
    const whole = take(options);
    const from = whole[Math.floor(whole.length / 2)]!.published;
    const rest = take({ ...options, publishedFrom: from });
    const expected = whole.filter((f) => f.published >= from);
    assert.ok(rest.length > 10 && rest.length < whole.length);
    assert.deepStrictEqual(fingerprints(rest), fingerprints(expected));
  });

  test('two parts cut at a publication date make the whole stream', () => {
    const options = { seed: 7, companies: 60, yearsPerCompany: 2 };
    const whole = take(options);
    const cut = whole[Math.floor(whole.length / 3)]!.published;
    const parts = [...take({ ...options, publishedBefore: cut }), ...take({ ...options, publishedFrom: cut })];
    assert.deepStrictEqual(fingerprints(parts), fingerprints(whole));
  });

  test('another seed, other filings', () => {
    const a = take({ seed: 1, companies: 10 }, 10);
    const b = take({ seed: 2, companies: 10 }, 10);
    assert.notDeepEqual(
      a.map((f) => f.bytes.toString('base64')),
      b.map((f) => f.bytes.toString('base64')),
    );
  });

  test('a company files the same bytes however many companies are generated', () => {
    const small = take({ seed: 11, companies: 15, yearsPerCompany: 2 });
    const large = new Map(take({ seed: 11, companies: 45, yearsPerCompany: 2 }).map((f) => [f.fileName, f]));
    for (const filing of small) {
      assert.ok(large.get(filing.fileName)?.bytes.equals(filing.bytes), filing.fileName);
    }
  });

  test('filings come in publication order, dated Tuesday to Saturday', () => {
    const filings = take({ seed: 3, companies: 200, yearsPerCompany: 3 });
    for (let i = 1; i < filings.length; i++) assert.ok(filings[i - 1]!.published <= filings[i]!.published);
    for (const f of filings) {
      const day = new Date(`${f.published}T00:00:00Z`).getUTCDay();
      assert.ok(day >= 2 && day <= 6, `${f.published} is a ${day}`);
      const months = (Date.parse(f.published) - Date.parse(f.expected.balance_sheet_date)) / (30.44 * 86_400_000);
      assert.ok(months > 0.5 && months < 13, `${f.fileName} published ${f.published}`);
    }
  });

  test('file names follow the bulk product: Prod223_<run>_<number>_<YYYYMMDD>.html|xml', () => {
    for (const f of take({ seed: 5, companies: 60, yearsPerCompany: 6, fromYear: 2009 })) {
      const m = /^Prod223_(\d{4})_([A-Z0-9]{8})_(\d{8})\.(html|xml)$/.exec(f.fileName);
      assert.ok(m, f.fileName);
      assert.equal(m[2], f.expected.company_number);
      assert.equal(m[3], f.expected.balance_sheet_date.replace(/-/g, ''));
      assert.equal(m[4], f.style === 'xbrl-plain' ? 'xml' : 'html');
    }
  });

  test('options are checked', () => {
    assert.throws(() => take({ seed: 1, companies: -1 }), /companies/);
    assert.throws(() => take({ seed: 1, companies: 1, yearsPerCompany: 0 }), /yearsPerCompany/);
    assert.deepEqual(take({ seed: 1, companies: 5, fromYear: 1990, yearsPerCompany: 2 }), []);
  });
});

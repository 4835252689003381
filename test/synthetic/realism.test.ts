/**
 * Generated filings look and behave like real ones: sizes in the range of real filings, the
 * accounting identities in what they tag, and the variety of markup UK filing software produces,
 * all read without a single conflict or unreadable fact.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseFiling } from '../../src/accounts/parse-filing.ts';
import { syntheticFilings } from '../../src/synthetic/filings.ts';
import type { SyntheticFiling } from '../../src/synthetic/filings.ts';

const CORPUS: SyntheticFiling[] = [
  ...syntheticFilings({ seed: 31, companies: 150, yearsPerCompany: 4, fromYear: 2010 }),
  ...syntheticFilings({ seed: 32, companies: 250, yearsPerCompany: 3 }),
];
const IXBRL = CORPUS.filter((f) => f.style !== 'xbrl-plain');
const TEXT = new Map(CORPUS.map((f) => [f, f.bytes.toString('utf8')]));

function text(f: SyntheticFiling): string {
  return TEXT.get(f)!;
}

function someFiling(filings: readonly SyntheticFiling[], pattern: RegExp): boolean {
  return filings.some((f) => pattern.test(text(f)));
}

/** An ix:nonFraction inside an ix:nonNumeric. */
function hasNestedFact(html: string): boolean {
  for (let at = html.indexOf('<ix:nonNumeric'); at >= 0; at = html.indexOf('<ix:nonNumeric', at + 1)) {
    const end = html.indexOf('</ix:nonNumeric>', at);
    const inner = html.indexOf('<ix:nonFraction', at);
    if (inner >= 0 && inner < end) return true;
  }
  return false;
}

describe('realism', () => {
  test('sizes are those of real filings: all within 10–120 KB, typically 15–80 KB', () => {
    const sizes = CORPUS.map((f) => f.bytes.length).sort((a, b) => a - b);
    for (const f of CORPUS) {
      assert.ok(f.bytes.length >= 10 * 1024 && f.bytes.length <= 120 * 1024, `${f.fileName}: ${f.bytes.length}`);
    }
    const median = sizes[sizes.length >> 1]!;
    assert.ok(median >= 15 * 1024 && median <= 80 * 1024, `median ${median}`);
    const typical = sizes.filter((s) => s >= 15 * 1024 && s <= 80 * 1024).length;
    assert.ok(typical / sizes.length > 0.8, `${typical} of ${sizes.length} in 15–80 KB`);
  });

  test('the parser reads every filing without conflicts, unreadable facts or quality warnings', () => {
    for (const f of CORPUS) {
      const result = parseFiling(f.bytes, f.fileName);
      assert.ok(result.ok, f.fileName);
      assert.deepEqual(result.filing.warnings, [], f.fileName);
      assert.deepEqual(result.filing.quality, [], f.fileName);
      assert.equal(result.filing.company_number_source, 'document');
    }
  });

  test('what the filings tag obeys the accounting identities', () => {
    for (const f of CORPUS) {
      for (const figures of [f.expected.current, f.expected.prior]) {
        if (!figures) continue;
        const { net_assets: na, equity, cash, debtors, current_assets: ca } = figures;
        const { creditors, creditors_within_one_year: within, creditors_after_one_year: after } = figures;
        const talcl = figures.total_assets_less_current_liabilities;
        if (na !== null && equity !== null) assert.equal(na, equity, f.fileName);
        if (creditors !== null && within !== null) assert.equal(creditors, within, f.fileName);
        if (ca !== null && cash !== null && debtors !== null) assert.ok(ca >= cash + debtors, f.fileName);
        // What separates the two is provisions, never negative.
        if (talcl !== null && after !== null && na !== null) assert.ok(talcl - after >= na, f.fileName);
      }
    }
  });

  const features: { name: string; among?: 'ixbrl' | 'plain'; pattern: RegExp }[] = [
    { name: 'inline XBRL 1.0 (2008) namespace', pattern: /xmlns:ix="http:\/\/www\.xbrl\.org\/2008\/inlineXBRL"/ },
    { name: 'inline XBRL 1.1 (2013) namespace', pattern: /xmlns:ix=["']http:\/\/www\.xbrl\.org\/2013\/inlineXBRL["']/ },
    { name: 'ixt 2010-04-20 numcommadot', pattern: /transformation\/2010-04-20[\s\S]*format=["']ixt:numcommadot/ },
    { name: 'ixt 2011 numdotdecimal', pattern: /format=["']ixt2?:numdotdecimal/ },
    { name: 'ixt4 num-dot-decimal', pattern: /format=["']ixt4?:num-dot-decimal/ },
    { name: 'zero as a dash: zerodash', pattern: /format=["']ixt2?:zerodash["'][^>]*>-</ },
    { name: 'zero as a dash: numdash', pattern: /format=["']ixt:numdash["'][^>]*>-</ },
    { name: 'zero as a dash: fixed-zero', pattern: /format=["']ixt4?:fixed-zero["'][^>]*>-</ },
    { name: 'scale 3 with decimals -3', pattern: /decimals=["']-3["'] scale=["']3["']/ },
    {
      name: 'negatives: sign="-", brackets outside the tag',
      pattern: /\(<ix:nonFraction[^>]*sign=["']-["'][^>]*>[\d,]+<\/ix:nonFraction>\)/,
    },
    { name: 'an ix:continuation', pattern: /continuedAt=["'][^"']+["'][\s\S]*<ix:continuation id=/ },
    { name: 'an ix:exclude', pattern: /<ix:exclude>/ },
    {
      name: 'employees in ix:hidden',
      pattern: /<ix:hidden>(?:(?!<\/ix:hidden>)[\s\S])*AverageNumberEmployeesDuringPeriod/,
    },
    { name: 'a dormant flag', pattern: /EntityDormant(Truefalse)?["'][^>]*>true</ },
    {
      name: 'group accounts on the Consolidated member',
      pattern: /GroupCompanyDataDimension["']>[\w-]+:Consolidated</,
    },
    { name: 'creditors by maturity', pattern: /MaturitiesOrExpirationPeriodsDimension["']>[\w-]+:WithinOneYear</ },
    {
      name: 'creditors current / non-current',
      pattern: /FinancialInstrumentCurrentNon-currentDimension["']>[\w-]+:CurrentFinancialInstruments</,
    },
    {
      name: 'equity components by class',
      pattern: /EquityClassesDimension["']>[\w-]+:RetainedEarningsAccumulatedLosses</,
    },
    { name: 'Micro-entities standard member', pattern: /AccountingStandardsDimension["']>[\w-]+:Micro-entities</ },
    { name: 'SmallEntities standard member', pattern: /AccountingStandardsDimension["']>[\w-]+:SmallEntities</ },
    { name: 'FRS-105 entry point', pattern: /xbrl\.frc\.org\.uk\/FRS-105\/\d{4}-\d{2}-\d{2}\/FRS-105-/ },
    { name: 'FRS-102 entry point', pattern: /xbrl\.frc\.org\.uk\/FRS-102\/\d{4}-\d{2}-\d{2}\/FRS-102-/ },
    { name: 'UK GAAP 2009 entry point', pattern: /uk\/gaap\/core\/2009-09-01\/uk-gaap-full-2009-09-01\.xsd/ },
    { name: 'a company number without its leading zeros', pattern: /companieshouse\.gov\.uk\/["']>[1-9]\d{6}</ },
    { name: 'single-quoted attributes', pattern: /<ix:nonFraction (name|contextRef)='/ },
    {
      name: 'contexts in the default instance namespace',
      pattern: /<context id=["'][^"']+["'] xmlns=["']http:\/\/www\.xbrl\.org\/2003\/instance/,
    },
    { name: 'the registered number tagged', pattern: /UKCompaniesHouseRegisteredNumber/ },
    { name: 'plain XBRL on the WebFiling schema', among: 'plain', pattern: /uk-gaap-ae-2009-06-21\.xsd/ },
    {
      name: 'plain XBRL pt 2004 concepts',
      among: 'plain',
      pattern: /<pt:CreditorsDueWithinOneYearTotalCurrentLiabilities /,
    },
  ];
  for (const { name, among = 'ixbrl', pattern } of features) {
    test(`variety: ${name}`, () => {
      const filings = among === 'plain' ? CORPUS.filter((f) => f.style === 'xbrl-plain') : IXBRL;
      assert.ok(someFiling(filings, pattern), `no filing has ${name}`);
    });
  }

  test('variety: a numeric fact nested in a text fact', () => {
    assert.ok(IXBRL.some((f) => hasNestedFact(text(f))));
  });

  test('variety: the taxonomies under many prefixes', () => {
    const prefixes = new Set<string>();
    for (const f of IXBRL) {
      const m = /xmlns:([\w-]+)=["']http:\/\/xbrl\.frc\.org\.uk\/fr\/[\d-]+\/core["']/.exec(text(f));
      if (m) prefixes.add(m[1]!);
    }
    for (const prefix of ['core', 'frs-core', 'c', 'ns5', 'uk-frs102']) assert.ok(prefixes.has(prefix), prefix);
  });

  test('variety: the same figure tagged twice, consistently', () => {
    let twice = 0;
    for (const f of IXBRL) {
      const seen = new Map<string, string>();
      for (const m of text(f).matchAll(/<ix:nonFraction ([^>]*)>([^<]*)</g)) {
        const attrs = m[1]!;
        const name = /name=["']([^"']+)/.exec(attrs)![1];
        const context = /contextRef=["']([^"']+)/.exec(attrs)![1];
        const key = `${name}@${context}`;
        // The hidden copy carries the plain value ("5670"), the page the formatted one ("5,670").
        const shown = m[2]!.replace(/,/g, '').replace(/^-$/, '0');
        const value = `${/sign=/.test(attrs) ? '-' : ''}${shown}`;
        const before = seen.get(key);
        if (before !== undefined) {
          assert.equal(value, before, `${f.fileName}: ${key}`);
          twice++;
        }
        seen.set(key, value);
      }
    }
    assert.ok(twice > 50, `${twice} repeated facts`);
  });
});

/**
 * The parser on crafted documents: periods, dimensions, nesting, exclusion, continuation and
 * duplicate facts, one behaviour per row.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseFiling } from '../../src/accounts/parse-filing.ts';
import { emptyFigures } from '../../src/domain/figures.ts';
import type { ParsedFiling } from '../../src/accounts/parse-filing.ts';
import { ixDocument, money } from '../support/ixbrl-doc.ts';
import type { ExtraContext } from '../support/ixbrl-doc.ts';

function parse(
  body: string,
  extraContexts: ExtraContext[] = [],
  file = 'Prod223_0001_01234567_20231231.html',
): ParsedFiling {
  const result = parseFiling(Buffer.from(ixDocument(body, { extraContexts })), file);
  if (!result.ok) assert.fail(JSON.stringify(result.failure));
  return result.filing;
}

describe('periods and dimensions', () => {
  const cases: {
    name: string;
    body: string;
    contexts?: ExtraContext[];
    check: (f: ParsedFiling) => void;
  }[] = [
    {
      name: 'instant facts at the balance sheet date are current, the year before prior',
      body: money('NetAssetsLiabilities', 'cy', '1,000') + money('NetAssetsLiabilities', 'py', '800'),
      check: (f) => {
        assert.equal(f.balance_sheet_date, '2023-12-31');
        assert.equal(f.current.net_assets, 1000);
        assert.equal(f.prior_balance_sheet_date, '2022-12-31');
        assert.equal(f.prior?.net_assets, 800);
      },
    },
    {
      name: 'duration facts ending at the balance sheet date are the period figures',
      body:
        money('TurnoverRevenue', 'cyd', '50,000') +
        money('TurnoverRevenue', 'pyd', '40,000') +
        money('NetAssetsLiabilities', 'cy', '1'),
      check: (f) => {
        assert.equal(f.current.turnover, 50000);
        assert.equal(f.prior?.turnover, 40000);
        assert.equal(f.period_start, '2023-01-01');
        assert.equal(f.prior_period_start, '2022-01-01');
      },
    },
    {
      name: 'a dimensioned fact is a breakdown, not the company figure',
      contexts: [{ id: 'cons', instant: '2023-12-31', members: [['GroupCompanyDataDimension', 'Consolidated']] }],
      body: money('NetAssetsLiabilities', 'cons', '9,999') + money('Equity', 'cy', '5'),
      check: (f) => {
        assert.equal(f.current.net_assets, null);
        assert.equal(f.current.equity, 5);
      },
    },
    {
      name: 'equity tagged only by class stays null rather than summing parts',
      contexts: [
        { id: 'sc', instant: '2023-12-31', members: [['EquityClassesDimension', 'ShareCapital']] },
        { id: 're', instant: '2023-12-31', members: [['EquityClassesDimension', 'RetainedEarningsAccumulatedLosses']] },
      ],
      body: money('Equity', 'sc', '2') + money('Equity', 're', '8,380') + money('NetAssetsLiabilities', 'cy', '8,382'),
      check: (f) => assert.equal(f.current.equity, null),
    },
    {
      name: 'creditors by maturity fill the breakdown and, without a total, creditors',
      contexts: [
        { id: 'w', instant: '2023-12-31', members: [['MaturitiesOrExpirationPeriodsDimension', 'WithinOneYear']] },
        { id: 'a', instant: '2023-12-31', members: [['MaturitiesOrExpirationPeriodsDimension', 'AfterOneYear']] },
      ],
      body: money('Creditors', 'w', '700') + money('Creditors', 'a', '300'),
      check: (f) => {
        assert.equal(f.current.creditors_within_one_year, 700);
        assert.equal(f.current.creditors_after_one_year, 300);
        assert.equal(f.current.creditors, 700);
      },
    },
    {
      name: 'an undimensioned Creditors fact is the creditors total',
      contexts: [
        { id: 'a', instant: '2023-12-31', members: [['MaturitiesOrExpirationPeriodsDimension', 'AfterOneYear']] },
      ],
      body: money('Creditors', 'cy', '1,234') + money('Creditors', 'a', '300'),
      check: (f) => {
        assert.equal(f.current.creditors, 1234);
        assert.equal(f.current.creditors_within_one_year, null);
        assert.equal(f.current.creditors_after_one_year, 300);
      },
    },
    {
      name: 'creditors with both maturity and current/non-current members count as the breakdown',
      contexts: [
        {
          id: 'wc',
          instant: '2023-12-31',
          members: [
            ['FinancialInstrumentCurrentNon-currentDimension', 'CurrentFinancialInstruments'],
            ['MaturitiesOrExpirationPeriodsDimension', 'WithinOneYear'],
          ],
        },
      ],
      body: money('Creditors', 'wc', '476,332'),
      check: (f) => assert.equal(f.current.creditors_within_one_year, 476332),
    },
    {
      name: 'a maturity breakdown of a consolidated figure is not the company breakdown',
      contexts: [
        {
          id: 'wg',
          instant: '2023-12-31',
          members: [
            ['MaturitiesOrExpirationPeriodsDimension', 'WithinOneYear'],
            ['GroupCompanyDataDimension', 'Consolidated'],
          ],
        },
      ],
      body: money('Creditors', 'wg', '10,077,539') + money('Equity', 'cy', '1'),
      check: (f) => assert.equal(f.current.creditors_within_one_year, null),
    },
    {
      name: 'of two durations ending at the date, the one from the period start wins',
      contexts: [{ id: 'q4', start: '2023-10-01', end: '2023-12-31' }],
      body: money('TurnoverRevenue', 'q4', '10') + money('TurnoverRevenue', 'cyd', '100') + money('Equity', 'cy', '1'),
      check: (f) => assert.equal(f.current.turnover, 100),
    },
    {
      name: 'the stated balance sheet date wins over a later context',
      contexts: [{ id: 'later', instant: '2024-03-01' }],
      body:
        '<ix:nonNumeric name="bus:BalanceSheetDate" contextRef="cy" format="ixt:date-day-monthname-year-en">31 December 2023</ix:nonNumeric>' +
        money('Equity', 'cy', '1') +
        money('Equity', 'later', '2'),
      check: (f) => {
        assert.equal(f.balance_sheet_date, '2023-12-31');
        assert.equal(f.current.equity, 1);
      },
    },
    {
      name: 'employees are a duration figure and may sit in ix:hidden',
      body: `<div style="display:none">${money('Equity', 'cy', '1')}</div><ix:hidden>${'<ix:nonFraction name="core:AverageNumberEmployeesDuringPeriod" contextRef="cyd" unitRef="pure" decimals="0">12</ix:nonFraction>'}</ix:hidden>`,
      check: (f) => assert.equal(f.current.employees, 12),
    },
    {
      name: 'nil facts are not filed, not zero',
      body: money('Equity', 'cy', '', 'xsi:nil="true"') + money('NetAssetsLiabilities', 'cy', '5'),
      check: (f) => assert.equal(f.current.equity, null),
    },
  ];
  for (const c of cases) test(c.name, () => c.check(parse(c.body, c.contexts)));
});

describe('markup: nesting, exclusion, continuation, namespaces', () => {
  const cases: { name: string; body: string; check: (f: ParsedFiling) => void }[] = [
    {
      name: 'a number nested inside a text fact is still a fact',
      body: `<ix:nonNumeric name="core:SomeNote" contextRef="cyd">The company had ${money('CashBankOnHand', 'cy', '4,321')} in the bank.</ix:nonNumeric>`,
      check: (f) => assert.equal(f.current.cash, 4321),
    },
    {
      name: 'ix:exclude removes text from the enclosing fact but not nested facts',
      body: `<ix:nonNumeric name="bus:EntityCurrentLegalOrRegisteredName" contextRef="cyd">ACME<ix:exclude> (page 1)</ix:exclude> LTD</ix:nonNumeric>${money('Equity', 'cy', '1')}`,
      check: (f) => assert.equal(f.entity_name, 'TEST COMPANY LIMITED'),
    },
    {
      name: 'a continuation chain completes a text fact',
      body:
        '<ix:nonNumeric name="bus:BalanceSheetDate" contextRef="cy" format="ixt:date-day-monthname-year-en" continuedAt="c1">31 December</ix:nonNumeric>' +
        '<p>unrelated</p><ix:continuation id="c1" continuedAt="c2"> 20</ix:continuation><ix:continuation id="c2">23</ix:continuation>' +
        money('Equity', 'cy', '1'),
      check: (f) => assert.equal(f.balance_sheet_date, '2023-12-31'),
    },
    {
      // Read as a date, the displayed text would make 2023-12-31 the balance sheet date.
      name: 'a text fact with the no-content format is empty, whatever it displays',
      body:
        '<ix:nonNumeric name="bus:BalanceSheetDate" contextRef="cy" format="ixt:fixed-empty">31 December 2023</ix:nonNumeric>' +
        money('Equity', 'cy', '1') +
        money('Equity', 'later', '2'),
      check: (f) => assert.equal(f.balance_sheet_date, '2024-03-31'),
    },
    {
      name: 'an element declaring the inline namespace as its default is a fact',
      body: '<nonFraction xmlns="http://www.xbrl.org/2013/inlineXBRL" name="core:Equity" contextRef="cy" unitRef="GBP" decimals="0">77</nonFraction>',
      check: (f) => assert.equal(f.current.equity, 77),
    },
    {
      name: 'single-quoted attributes and spaces around = are read',
      body: "<ix:nonFraction name='core:Equity' contextRef = 'cy' unitRef='GBP' scale ='3' decimals='-3'>5</ix:nonFraction>",
      check: (f) => assert.equal(f.current.equity, 5000),
    },
    {
      name: 'entities in the number text are decoded',
      body: money('Equity', 'cy', '1&#160;234'),
      check: (f) => assert.equal(f.current.equity, 1234),
    },
    {
      name: 'a self-closed fact has no value and is reported',
      body: `<ix:nonFraction name="core:Equity" contextRef="cy" unitRef="GBP" decimals="0"/>${money('NetAssetsLiabilities', 'cy', '3')}`,
      check: (f) => {
        assert.equal(f.current.equity, null);
        assert.ok(f.warnings.some((w) => w.includes('core:Equity')));
      },
    },
  ];
  for (const c of cases) test(c.name, () => c.check(parse(c.body, [{ id: 'later', instant: '2024-03-31' }])));
});

describe('duplicate facts', () => {
  test('consistent duplicates merge silently', () => {
    const f = parse(money('Equity', 'cy', '1,000') + money('Equity', 'cy', '1,000'));
    assert.equal(f.current.equity, 1000);
    assert.deepEqual(f.warnings, []);
  });
  test('duplicates consistent at the coarser precision merge, keeping the precise one', () => {
    const f = parse(
      money('Equity', 'cy', '1,234') +
        '<ix:nonFraction name="core:Equity" contextRef="cy" unitRef="GBP" decimals="-3" scale="3">1</ix:nonFraction>',
    );
    assert.equal(f.current.equity, 1234);
    assert.deepEqual(f.warnings, []);
  });
  test('conflicting duplicates: the first of equal precision wins and the conflict is reported', () => {
    const f = parse(money('Equity', 'cy', '1,000') + money('Equity', 'cy', '2,000'));
    assert.equal(f.current.equity, 1000);
    assert.ok(f.warnings.some((w) => w.includes('conflicting facts for Equity')));
  });
  test('conflicting duplicates: the more precise fact wins', () => {
    const f = parse(
      '<ix:nonFraction name="core:Equity" contextRef="cy" unitRef="GBP" decimals="-3" scale="3">5</ix:nonFraction>' +
        money('Equity', 'cy', '1,234'),
    );
    assert.equal(f.current.equity, 1234);
    assert.ok(f.warnings.some((w) => w.includes('conflicting')));
  });
  test('equivalent contexts with different ids are duplicates of each other', () => {
    const f = parse(money('Equity', 'cy', '10') + money('Equity', 'cy2', '10'), [{ id: 'cy2', instant: '2023-12-31' }]);
    assert.equal(f.current.equity, 10);
    assert.deepEqual(f.warnings, []);
  });
});

describe('identity', () => {
  test('the document number wins over the file name and the difference is reported', () => {
    const result = parseFiling(
      Buffer.from(ixDocument(money('Equity', 'cy', '1'), { number: '7654321' })),
      'Prod223_0001_01234567_20231231.html',
    );
    assert.ok(result.ok);
    assert.equal(result.filing.company_number, '07654321');
    assert.ok(result.filing.warnings.some((w) => w.includes('file name 01234567')));
  });
  test('with no number in the document, the file name gives it', () => {
    const doc = ixDocument(money('Equity', 'cy', '1'), { number: 'ACME LIMITED' });
    const result = parseFiling(Buffer.from(doc), 'Prod223_0001_SC123456_20231231.html');
    assert.ok(result.ok);
    assert.equal(result.filing.company_number, 'SC123456');
    assert.equal(result.filing.company_number_source, 'file_name');
  });
  test('with no number anywhere the failure says so', () => {
    const doc = ixDocument(money('Equity', 'cy', '1'), { number: 'ACME LIMITED' });
    const result = parseFiling(Buffer.from(doc), 'accounts.html');
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.failure.error.code, 'no_company_number');
  });
  test('the standard comes from the accounting standards dimension before the schema', () => {
    const f = parse(money('Equity', 'cy', '1'), [
      {
        id: 'std',
        start: '2023-01-01',
        end: '2023-12-31',
        members: [['AccountingStandardsDimension', 'Micro-entities']],
      },
    ]);
    assert.equal(f.standard, 'FRS 105');
  });
  test('without the dimension, the FRS 102 schema reference decides', () => {
    assert.equal(parse(money('Equity', 'cy', '1')).standard, 'FRS 102');
  });
});

describe('a stated balance sheet date with no figures tagged at it', () => {
  // The shape of a real FRS 105 filing: the balance sheet is dated 28 February 2018 (as is the
  // file name), the 2018 column prints "-" untagged in every line, and only the comparative
  // column, to 30 September 2016, is tagged; the document has no context for 2018 at all.
  const contexts: ExtraContext[] = [
    { id: 'py', instant: '2016-09-30' },
    { id: 'pyd', start: '2015-10-01', end: '2016-09-30' },
  ];
  const date = (concept: string, text: string) =>
    `<ix:nonNumeric name="bus:${concept}" contextRef="pyd" format="ixt:date-day-monthname-year-en">${text}</ix:nonNumeric>`;
  const row = (label: string, comparative: string) => `<tr><td>${label}</td><td>-</td><td>${comparative}</td></tr>`;
  const balanceSheet =
    '<table><tr><th></th><th>2018</th><th>2016</th></tr>' +
    row('Turnover', money('TurnoverRevenue', 'pyd', '48,210')) +
    row('Current assets', money('CurrentAssets', 'py', '12,500')) +
    row('Creditors', money('Creditors', 'py', '3,100')) +
    row('Net assets', money('NetAssetsLiabilities', 'py', '9,400')) +
    row('Capital and reserves', money('Equity', 'py', '9,400')) +
    '</table>';
  const frs105 = 'https://xbrl.frc.org.uk/FRS-105/2014-09-01/FRS-105-2014-09-01.xsd';
  const parseShape = (statements: string, file: string): ParsedFiling => {
    const doc = ixDocument(statements + balanceSheet, { contexts, number: '09425999', schemaRef: frs105 });
    const result = parseFiling(Buffer.from(doc), file);
    if (!result.ok) assert.fail(JSON.stringify(result.failure));
    return result.filing;
  };
  const checkStatedDateKept = (f: ParsedFiling) => {
    assert.equal(f.balance_sheet_date, '2018-02-28');
    assert.deepEqual(f.current, emptyFigures());
    assert.equal(f.prior_balance_sheet_date, '2016-09-30');
    assert.equal(f.prior_period_start, '2015-10-01');
    assert.equal(f.prior?.net_assets, 9400);
    assert.equal(f.prior?.turnover, 48210);
    assert.deepEqual(f.quality, [
      {
        field: 'balance_sheet_date',
        period: 'current',
        message:
          'no figures are tagged for the balance sheet date 2018-02-28; the figures tagged for 2016-09-30 are the prior period',
      },
    ]);
  };

  test('the date the file name confirms stays; the comparative column is the prior period', () => {
    const f = parseShape(
      date('BalanceSheetDate', '28 February 2018') + date('StartDateForPeriodCoveredByReport', '1 October 2016'),
      'Prod223_2125_09425999_20180228.html',
    );
    checkStatedDateKept(f);
    assert.equal(f.period_start, '2016-10-01');
    assert.equal(f.standard, 'FRS 105');
  });

  test('without a date in the file name, the stated period end confirms it', () => {
    const f = parseShape(
      date('BalanceSheetDate', '28 February 2018') + date('EndDateForPeriodCoveredByReport', '28 February 2018'),
      'accounts.html',
    );
    checkStatedDateKept(f);
    assert.equal(f.period_start, null);
  });

  test('a stated date the file name contradicts gives way to the date with figures', () => {
    const f = parseShape(date('BalanceSheetDate', '28 February 2018'), 'Prod223_2125_09425999_20160930.html');
    assert.equal(f.balance_sheet_date, '2016-09-30');
    assert.equal(f.current.net_assets, 9400);
    assert.deepEqual(f.quality, []);
  });
});

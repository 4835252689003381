/**
 * The Company and Compare pages over real HTTP (PGlite, Postgres search): one chart point per
 * filed year with the API's values (prior-year-only years marked), each shown as a label with the
 * figure's growth and a table of its own, the table of the same numbers
 * formatted for a UK reader, the risk band and its signals, the links to compare and to the
 * filings; a malformed number is a 400 page naming the field, an unknown one a 404 page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call } from '../support/api-fixtures.ts';
import { parsePscLine } from '../../src/ownership/psc-line.ts';
import type { PscRecord } from '../../src/domain/psc.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { HISTORY, HISTORY_YEARS, loadWebFixtures, NOW, TESCO } from './support/web-fixtures.ts';

const FIGURES = ['net_assets', 'cash', 'turnover', 'profit', 'employees'] as const;

/** The points of one figure's chart: [class, date, value], in drawing order. */
function chartPoints(page: string, figure: string): [string, string, number][] {
  const chart = new RegExp(`<figure class="chart" data-figure="${figure}">([\\s\\S]*?)</figure>`).exec(page)?.[1];
  assert.ok(chart, `a chart of ${figure}`);
  return [...chart.matchAll(/<circle class="([^"]+)"[^>]*data-date="([^"]+)" data-value="([^"]+)"/g)].map((m) => [
    m[1]!,
    m[2]!,
    Number(m[3]),
  ]);
}

describe('the Company and Compare pages', () => {
  let world: World;
  let key: string;
  let page: string;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadWebFixtures(world);
    key = await world.issueKey('pro');
    const answer = await fetch(`${world.url}/company/${HISTORY}`);
    assert.equal(answer.status, 200);
    page = await answer.text();
  });
  after(() => world.close());

  test('one chart point per filed year, with the values lookup_company gives, prior-year-only years hollow', async () => {
    const api = await call(world, `/v1/company?number=${HISTORY}&format=json`, { key });
    assert.equal(api.status, 200);
    const accounts = [
      ...(api.body.accounts as {
        balance_sheet_date: string;
        figures: Record<string, number | null>;
        from_prior_period: boolean;
      }[]),
    ].reverse();
    assert.equal(accounts.length, HISTORY_YEARS.length);
    for (const figure of FIGURES) {
      assert.deepEqual(
        chartPoints(page, figure),
        accounts.map((a) => [a.from_prior_period ? 'point prior' : 'point', a.balance_sheet_date, a.figures[figure]]),
        figure,
      );
      assert.deepEqual(
        chartPoints(page, figure),
        HISTORY_YEARS.map((y) => [y.prior ? 'point prior' : 'point', y.date, y[figure]]),
        figure,
      );
    }
  });

  test('every chart shows its values without hover: point labels, one y-axis label, growth, a table', () => {
    const growth: Record<(typeof FIGURES)[number], string> = {
      net_assets: 'Latest £210k (31 March 2024): up £60k (40%) from £150k (31 March 2023).',
      cash: 'Latest £95k (31 March 2024): up £43k (83%) from £52k (31 March 2023).',
      turnover: 'Latest £1.4m (31 March 2024): up £300k (27%) from £1.1m (31 March 2023).',
      profit: 'Latest £60k (31 March 2024): up £30k (100%) from £30k (31 March 2023).',
      employees: 'Latest 21 (31 March 2024): up 5 (31%) from 16 (31 March 2023).',
    };
    for (const figure of FIGURES) {
      const chart = new RegExp(`<figure class="chart" data-figure="${figure}">([\\s\\S]*?)</figure>`).exec(page)![1]!;
      const svg = /<svg[^>]*>/.exec(chart)![0];
      // Unscaled: no viewBox to shrink the text below the stylesheet's size in a narrow column.
      assert.doesNotMatch(svg, /viewBox/, figure);
      assert.deepEqual(
        [...chart.matchAll(/<text class="axis-label" x="0"[^>]*>([^<]+)</g)].map((m) => m[1]),
        [figure === 'employees' ? '0' : '£0'],
        `${figure}: one y-axis label, zero`,
      );
      assert.deepEqual(
        [...chart.matchAll(/<text class="value-label"[^>]*data-date="([^"]+)">([^<]+)</g)].map((m) => m[1]),
        HISTORY_YEARS.map((y) => y.date),
        `${figure}: a value label on every point`,
      );
      assert.match(chart, new RegExp(`<p class="chart-growth"[^>]*>${growth[figure].replace(/[().]/g, '\\$&')}</p>`));
      assert.match(chart, /<details class="chart-values">/);
    }
    const profit = new RegExp('<figure class="chart" data-figure="profit">([\\s\\S]*?)</figure>').exec(page)![1]!;
    assert.deepEqual(
      [...profit.matchAll(/<text class="value-label"[^>]*>([^<]+)</g)].map((m) => m[1]),
      ['-£5k', '£15k', '£30k', '£60k'],
    );
    assert.deepEqual(
      [
        ...profit.matchAll(
          /<tr data-date="([^"]+)"><th scope="row">[^<]+<\/th><td class="number">([^<]+)<\/td><td>([^<]+)</g,
        ),
      ].map((m) => [m[1], m[2], m[3]]),
      [
        ['2021-03-31', '-£5,000', '—'],
        // From a loss, the change has no percentage: it would say nothing.
        ['2022-03-31', '£15,000', 'up £20,000'],
        ['2023-03-31', '£30,000', 'up £15,000 (100%)'],
        ['2024-03-31', '£60,000', 'up £30,000 (100%)'],
      ],
    );
  });

  test('the table holds the same numbers, formatted for a UK reader', () => {
    const flat = page.replace(/\s+/g, ' ');
    assert.match(
      flat,
      /<tr data-date="2021-03-31"><th scope="row">31 March 2021<\/th><td class="number">£100,000<\/td><td class="number">£35,000<\/td><td class="number">£800,000<\/td><td class="number">-£5,000<\/td><td class="number">10<\/td><td>Prior-year column of a later filing<\/td><\/tr>/,
    );
    assert.match(
      flat,
      /<tr data-date="2024-03-31"><th scope="row">31 March 2024<\/th><td class="number">£210,000<\/td><td class="number">£95,000<\/td><td class="number">£1,400,000<\/td><td class="number">£60,000<\/td><td class="number">21<\/td><td>Accounts published 1 September 2024 \(FRS 102\)<\/td><\/tr>/,
    );
  });

  test('each year’s source filing by name: the bulk file and the document in it, prior-year-only years from the later filing', async () => {
    const flat = page.replace(/\s+/g, ' ');
    const listed = [
      ...flat.matchAll(/<li data-date="([^"]+)">([^<]+): <code>([^<]+)<\/code> in <code>([^<]+)<\/code>([^<]*)<\/li>/g),
    ];
    assert.deepEqual(
      listed.map((m) => m.slice(1)),
      [
        [
          '2021-03-31',
          '31 March 2021',
          'Prod223_0001_01234567_20220331.html',
          'Accounts_Bulk_Data-2022-09-01.zip',
          ', its prior-year column',
        ],
        ['2022-03-31', '31 March 2022', 'Prod223_0001_01234567_20220331.html', 'Accounts_Bulk_Data-2022-09-01.zip', ''],
        [
          '2023-03-31',
          '31 March 2023',
          'Prod223_0001_01234567_20240331.html',
          'Accounts_Bulk_Data-2024-09-01.zip',
          ', its prior-year column',
        ],
        ['2024-03-31', '31 March 2024', 'Prod223_0001_01234567_20240331.html', 'Accounts_Bulk_Data-2024-09-01.zip', ''],
      ],
    );
    // The same names lookup_company gives.
    const api = await call(world, `/v1/company?number=${HISTORY}&format=json`, { key });
    assert.deepEqual(
      (api.body.accounts as { source: { zip: string; file: string } }[])
        .map((a) => [a.source.file, a.source.zip])
        .reverse(),
      listed.map((m) => [m[3], m[4]]),
    );
  });

  test('the register record, the risk band with its reasons, the compare form and the filing history link', () => {
    const flat = page.replace(/\s+/g, ' ');
    assert.match(flat, /<h1>HARBOUR FIGURES LIMITED<\/h1>/);
    assert.match(flat, /<dt>Registered office<\/dt><dd>[^<]*BRISTOL/);
    assert.match(flat, /Risk band: <span class="band band-(low|medium|high|unknown)">/);
    assert.match(
      flat,
      /<form class="compare-form" action="\/compare" method="get"> <input type="hidden" name="company_a" value="01234567">/,
    );
    assert.match(
      flat,
      /href="https:\/\/find-and-update\.company-information\.service\.gov\.uk\/company\/01234567\/filing-history"/,
    );
  });

  test('the trajectory is explained by its figures: each first to last, and the count that decides it', async () => {
    const flat = page.replace(/\s+/g, ' ');
    const lookup = (await call(world, `/v1/company?number=${HISTORY}&format=json`, { key })).body;
    const sentence = /Trajectory: (\w+) over \d+ periods? — (\d) figures? growing, (\d) declining, (\d) stable/.exec(
      flat,
    );
    assert.ok(sentence, 'the trajectory with its count');
    assert.equal(sentence[1], lookup.trajectory.direction);
    const items = [...flat.matchAll(/<li>(Net assets|Cash|Turnover|Employees|Profit): ([^<]*)<\/li>/g)];
    assert.equal(items.length, 5);
    const netAssets = lookup.trajectory.net_assets;
    if (netAssets.direction !== 'insufficient_data')
      assert.match(flat, new RegExp(`<li>Net assets: [^<]*, ${netAssets.direction}</li>`));
    const grows = items.filter((m) => m[2]!.endsWith(', growing')).length;
    assert.equal(Number(sentence[2]), grows);
  });

  test('a PSC’s identity verification beside its name, and the identity_unverified signal', async () => {
    const line = parsePscLine(
      JSON.stringify({
        company_number: TESCO,
        data: {
          kind: 'individual-person-with-significant-control',
          name: 'Ms Una Verified',
          name_elements: { title: 'Ms', forename: 'Una', surname: 'Verified' },
          natures_of_control: ['ownership-of-shares-25-to-50-percent'],
          notified_on: '2019-05-01',
          etag: 'etag-una',
          links: { self: `/company/${TESCO}/persons-with-significant-control/individual/una` },
          identity_verification_details: {
            appointment_verification_statement_date: '2019-12-01',
            appointment_verification_statement_due_on: '2019-12-15',
          },
        },
      }),
    );
    assert.equal(line.type, 'psc');
    await world.pscs.upsertPscs([(line as { record: PscRecord }).record], '2020-01-01');
    const answer = await fetch(`${world.url}/company/${TESCO}`);
    assert.equal(answer.status, 200);
    const text = await answer.text();
    assert.match(text, /Ms Una Verified<\/a> \(individual; identity due 2019-12-15\)/);
    assert.match(
      text,
      /<li><span class="severity severity-medium">medium<\/span> Identity not verified by its due date: Ms Una Verified \(person with significant control, due 2019-12-15\)\.<\/li>/,
    );
  });

  test('a company without accounts says so instead of drawing empty charts', async () => {
    const answer = await fetch(`${world.url}/company/${TESCO}`);
    assert.equal(answer.status, 200);
    const text = await answer.text();
    assert.match(text, /No machine-readable accounts are on file for this company\./);
    assert.doesNotMatch(text, /<svg/);
  });

  test('a malformed number is a 400 page naming the field; a number not on the register a 404 page', async () => {
    const bad = await fetch(`${world.url}/company/NOT-A-NUMBER`);
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /role="alert">Invalid &quot;company_number&quot;/);
    const missing = await fetch(`${world.url}/company/99999999`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /Company 99999999 not found\./);
  });

  test('Compare: both companies and each figure’s difference; a missing second number names company_b', async () => {
    const answer = await fetch(`${world.url}/compare?company_a=${HISTORY}&company_b=${TESCO}`);
    assert.equal(answer.status, 200);
    const flat = (await answer.text()).replace(/\s+/g, ' ');
    assert.match(flat, /<a href="\/company\/01234567">HARBOUR FIGURES LIMITED<\/a>/);
    assert.match(flat, /<a href="\/company\/00445790">TESCO PLC<\/a>/);
    assert.match(flat, /<th scope="row">Net assets<\/th><td class="number">£210,000<\/td><td class="number">—<\/td>/);
    const refused = await fetch(`${world.url}/compare?company_a=${HISTORY}`);
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /Invalid &quot;company_b&quot;/);
  });
});

/**
 * Register and PSC text is anyone's to write: every Markdown answer shows it as literal text.
 * A company named `[Click me](javascript:alert(4)) | PIPE | LTD`, with `<script>` in its SIC text,
 * its address and its person with significant control, is asked about through every operation
 * that shows it; no answer carries a live link, an extra table cell or an HTML tag.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { corporatePsc, individualPsc } from '../support/psc-records.ts';

const HOSTILE = '[Click me](javascript:alert(4)) | PIPE | LTD';
const SHOWN = '\\[Click me\\](javascript:alert(4)) \\| PIPE \\| LTD';

describe('Markdown answers escape the data they show', () => {
  let world: World;
  let key: string;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await world.loadRegister(
      [
        {
          number: '00000001',
          name: HOSTILE,
          postTown: 'LEEDS <b>TOWN</b>',
          sic: '62020 - <script>alert(1)</script> **consultancy**',
          addressLine1: '<img src=x onerror=alert(2)>',
          nextDue: '2025-01-31',
        },
        { number: '00000002', name: 'PLAIN TRADING LTD', nextDue: '2025-09-30' },
      ],
      '2025-01-01',
    );
    await world.loadAccounts(
      [
        {
          number: '00000001',
          name: HOSTILE,
          balanceSheetDate: '2024-12-31',
          current: { netAssets: 2_000_000, cash: 900_000, currentAssets: 1_000_000 },
          prior: { netAssets: 1_000_000, cash: 500_000 },
        },
      ],
      '2025-06-01',
    );
    await world.pscs.upsertPscs(
      [
        individualPsc('00000001', {
          forename: '[Click me](javascript:alert(4))',
          surname: '<script>alert(3)</script> | PIPE |',
          birthYear: 1970,
          birthMonth: 3,
        }),
        corporatePsc('00000002', { name: HOSTILE, registeredNumber: '00000001' }),
      ],
      '2025-01-01',
    );
    await world.reindex();
    key = await world.issueKey('pro');
  });
  after(() => world.close());

  const answers: { name: string; path: string; body?: unknown; shows?: false }[] = [
    { name: 'lookup_company', path: '/v1/company?number=1' },
    { name: 'lookup_companies', path: '/v1/companies', body: { company_numbers: ['1', '2'] } },
    { name: 'search_by_name', path: '/v1/search-by-name?name=click' },
    { name: 'search_companies', path: '/v1/search?status=any&sort=name' },
    { name: 'search_companies echoing the criteria', path: '/v1/search?post_town=<script>x</script>', shows: false },
    { name: 'compare_companies', path: '/v1/compare?a=1&b=2' },
    { name: 'get_ownership', path: '/v1/ownership?number=2' },
    { name: 'search_people', path: '/v1/search-people?name=click' },
    { name: 'find_triggers', path: '/v1/triggers?trigger=cash_rich' },
    { name: 'recent_changes', path: '/v1/recent-changes' },
    { name: 'market_stats by post town', path: '/v1/stats?status=any&group_by=post_town', shows: false },
    { name: 'watch_add', path: '/v1/watchlist/add', body: { company_numbers: ['1'] }, shows: false },
    { name: 'watch_list', path: '/v1/watchlist' },
    { name: 'get_alerts', path: '/v1/alerts?since=2024-01-01', shows: false },
  ];

  for (const answer of answers)
    test(answer.name, async () => {
      const got = await call(world, answer.path, { key, ...(answer.body ? { body: answer.body } : {}) });
      assert.equal(got.status, 200, JSON.stringify(got.body));
      const text = markdown(got);
      assert.doesNotMatch(text, /<(script|img|b)\b/i, 'no HTML tag survives');
      assert.doesNotMatch(text, /(?<!\\)\[Click me/, 'no live link');
      assert.doesNotMatch(text, /(?<!\\)\| PIPE/, 'no extra table cell');
      assert.doesNotMatch(text, /(?<!\\)\*\*consultancy/, 'no emphasis from the data');
      if (answer.shows !== false)
        assert.ok(text.includes(SHOWN) || text.includes('\\[Click me\\]'), `the data is still shown:\n${text}`);
    });
});

/**
 * Paging on every SearchIndex adapter: a search walked page by page through its `next` keys
 * (search after, never an offset) returns each match exactly once, in the order one answer would
 * give, for criteria search (several sorts, ties and missing values), triggers and name search
 * (every ranking tier). Then the proof under writes: while a load upserts companies between and
 * during page requests — new ones, ones whose sort values change, and ones written again
 * unchanged — every company that does not change is returned exactly once and in its place, and
 * the keys a walk returns only ever increase. A company whose sort value changed may move (and so
 * be met again, or not at all): that is the price of never holding a snapshot between requests.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex, ensureIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import { querySortOrder } from '../../src/domain/company-conditions.ts';
import { normaliseCompanyName } from '../../src/domain/company-name.ts';
import type { CompanyKey, CompanyQuery, SortOrder } from '../../src/domain/criteria.ts';
import { isActiveStatus } from '../../src/domain/name-search.ts';
import type { SearchDocument } from '../../src/domain/search-document.ts';
import { TRIGGERS } from '../../src/domain/triggers.ts';
import type { NameKey, NameSearchHit } from '../../src/domain/name-search.ts';
import type { SearchIndex } from '../../src/ports/search-index.ts';
import { testStores } from '../support/databases.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { AS_OF, criteriaCompanies, searchDocuments } from '../support/search-fixtures.ts';
import { Random } from '../../src/synthetic/random.ts';

type Make = () => Promise<{ index: SearchIndex; close(): Promise<void> }>;

const adapters: [string, Make][] = testStores.map((store): [string, Make] => [
  `postgres (${store.name})`,
  async () => {
    const { sql, close } = await store.open();
    return { index: createPgSearchIndex(sql), close };
  },
]);
let indexCounter = 0;
for (const [label, options] of [
  ['elasticsearch', {}],
  ['elasticsearch (tiered name search)', { scoredNameSearchUpTo: 0 }],
] as const) {
  adapters.push([
    label,
    async () => {
      const client = new Client({ node: elasticsearchUrl() });
      const alias = `companies_paging_${process.pid}_${++indexCounter}`;
      await ensureIndex({ client, alias });
      return {
        index: createEsSearchIndex({ client, alias, ...options }),
        async close() {
          await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
          await client.close();
        },
      };
    },
  ]);
}

/** The generator's own mulberry32 stream: the same companies on every run and adapter. */
function random(seed: number): () => number {
  const stream = new Random(seed);
  return () => stream.next();
}

const STABLE = 2_400;
const MOVING = 400;
const BASE = criteriaCompanies.northwind;
const DATES = ['2001-02-03', '2010-01-01', '2015-06-30', '2020-12-31', null];

/** Companies with many ties and missing values on every sort field. */
function companies(prefix: string, count: number, seed: number): SearchDocument[] {
  const next = random(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const roll = next();
    return {
      ...BASE,
      company_number: `${prefix}${String(i).padStart(8 - prefix.length, '0')}`,
      name: `PAGED ${pick(['ALPHA', 'BETA', 'GAMMA', 'DELTA'])} ${Math.floor(next() * 300)}`,
      incorporated: pick(DATES),
      net_assets: roll < 0.15 ? null : roll < 0.3 ? 0 : roll < 0.5 ? 100 : roll < 0.55 ? -5 : Math.round(next() * 1e6),
      employees: pick([null, 1, 1, 1, 2, 10]),
    };
  });
}

/** One document per company (the last given): one upsert may not write a row twice. */
function once(documents: SearchDocument[]): SearchDocument[] {
  return [...new Map(documents.map((d) => [d.company_number, d])).values()];
}

function compareKeys(descending: boolean): (a: CompanyKey, b: CompanyKey) => number {
  return ([a, an], [b, bn]) => {
    if (a !== b) {
      if (a === null) return 1;
      if (b === null) return -1;
      return (a < b ? -1 : 1) * (descending ? -1 : 1);
    }
    return an < bn ? -1 : an > bn ? 1 : 0;
  };
}

function keyOf(document: SearchDocument, sort: SortOrder): CompanyKey {
  return [(document[sort.field as keyof SearchDocument] ?? null) as CompanyKey[0], document.company_number];
}

/** Every page of a query, walked through `next`; the load (if any) runs beside each page request. */
async function walk(index: SearchIndex, query: Omit<CompanyQuery, 'after'>, load?: () => Promise<void>) {
  const pages: { documents: SearchDocument[]; total: number }[] = [];
  let after: CompanyKey | undefined;
  for (;;) {
    const [page] = await Promise.all([index.findCompanies({ ...query, after }), load?.()]);
    pages.push(page);
    assert.ok(page.documents.length <= query.limit);
    if (page.next === null) return pages;
    assert.equal(page.documents.length, query.limit, 'a page before the last is full');
    assert.deepEqual(
      page.next,
      keyOf(page.documents.at(-1)!, querySortOrder(query)),
      'next is the last document’s place',
    );
    after = page.next;
    assert.ok(pages.length < 1_000, 'the walk ends');
  }
}

const SORTS: SortOrder[] = [
  { field: 'net_assets', descending: true },
  { field: 'net_assets', descending: false },
  { field: 'employees', descending: false },
  { field: 'incorporated', descending: true },
  { field: 'name', descending: false },
];

/** Name search's tiers, as the ranking defines them (NameKey's 0–7), computed here for reference. */
function nameTier(hit: Pick<NameSearchHit, 'name' | 'status'>, phrase: string): number {
  const name = normaliseCompanyName(hit.name);
  const active = isActiveStatus(hit.status);
  if (name === phrase) return active ? 0 : 1;
  const shape = name.startsWith(phrase) ? 0 : ` ${name}`.includes(` ${phrase}`) ? 1 : 2;
  return (active ? 2 : 5) + shape;
}

function nameKey(hit: Pick<NameSearchHit, 'name' | 'status' | 'company_number'>, phrase: string): NameKey {
  return [nameTier(hit, phrase), hit.name.length, hit.company_number];
}

function compareNameKeys(a: NameKey, b: NameKey): number {
  return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
}

const NAME_TEMPLATES = [
  'PAG SYS',
  'PAG SYS LTD',
  'PAG SYS{n}',
  'PAG SYSTEMS {n} LTD',
  'THE PAG SYSTEMS {n}',
  'SYSTEMS PAGING {n}',
  'PAGING {n} SYS',
  'SYS PAG {n} LIMITED',
];

/** Names matching "pag sys" in every tier, active and not, with ties on length. */
function namedCompanies(prefix: string, count: number, seed: number): SearchDocument[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, i) => ({
    ...BASE,
    company_number: `${prefix}${String(i).padStart(8 - prefix.length, '0')}`,
    name: NAME_TEMPLATES[Math.floor(next() * NAME_TEMPLATES.length)]!.replace('{n}', String(Math.floor(next() * 500))),
    status: next() < 0.7 ? 'Active' : 'Dissolved',
  }));
}

async function walkNames(index: SearchIndex, query: string, limit: number, load?: () => Promise<void>) {
  const pages: { hits: NameSearchHit[]; total: number }[] = [];
  let after: NameKey | undefined;
  for (;;) {
    const [page] = await Promise.all([index.searchByName(query, limit, after), load?.()]);
    pages.push(page);
    assert.ok(page.hits.length <= limit);
    if (page.next === null) return pages;
    assert.equal(page.hits.length, limit, 'a page before the last is full');
    after = page.next;
    assert.ok(pages.length < 1_000, 'the walk ends');
  }
}

for (const [label, make] of adapters) {
  describe(`${label}: paging walks every match once, in order`, () => {
    let index: SearchIndex;
    let close: () => Promise<void>;
    before(async () => {
      ({ index, close } = await make());
    });
    after(async () => close());

    test('criteria and triggers over the fixtures: pages of one equal one answer, and next is null on the last', async () => {
      await index.upsertCompanies(searchDocuments);
      await index.refresh();
      for (const sort of SORTS) {
        const query = { filters: { status: 'any' as const }, sort, asOf: AS_OF };
        const whole = await index.findCompanies({ ...query, limit: 1_000 });
        assert.equal(whole.next, null);
        const pages = await walk(index, { ...query, limit: 1 });
        assert.deepEqual(
          pages.flatMap((p) => p.documents.map((d) => d.company_number)),
          whole.documents.map((d) => d.company_number),
          `sorted by ${sort.descending ? '-' : ''}${sort.field}`,
        );
        assert.ok(pages.every((p) => p.total === whole.total));
      }
      for (const trigger of TRIGGERS) {
        const query = { filters: { status: 'any' as const }, trigger, sort: SORTS[0]!, asOf: AS_OF };
        const whole = await index.findCompanies({ ...query, limit: 1_000 });
        const pages = await walk(index, { ...query, limit: 1 });
        assert.deepEqual(
          pages.flatMap((p) => p.documents.map((d) => d.company_number)),
          whole.documents.map((d) => d.company_number),
          trigger,
        );
      }
      // A full last page still says there is nothing after it.
      const exact = await index.findCompanies({ filters: { status: 'any' }, sort: SORTS[0]!, asOf: AS_OF, limit: 1 });
      const total = exact.total;
      const all = await index.findCompanies({ filters: { status: 'any' }, sort: SORTS[0]!, asOf: AS_OF, limit: total });
      assert.equal(all.documents.length, total);
      assert.equal(all.next, null);
    });

    test('name search over the fixtures: pages of one equal one answer', async () => {
      for (const query of ['tesco', 'acme', 't', 'marks & spencer']) {
        const whole = await index.searchByName(query, 100);
        assert.equal(whole.next, null);
        const pages = await walkNames(index, query, 1);
        assert.deepEqual(
          pages.flatMap((p) => p.hits),
          whole.hits,
          query,
        );
        assert.ok(pages.every((p) => p.total === whole.total));
      }
      assert.deepEqual(await index.searchByName('qqqqzzz', 5), { total: 0, hits: [], next: null, near: [] });
    });

    test(`criteria search over ${STABLE + MOVING} companies: each once, in order, for every sort`, async () => {
      const stable = companies('P', STABLE, 1);
      await index.rebuild(
        (async function* () {
          yield [...stable, ...companies('Q', MOVING, 2)];
        })(),
      );
      await index.refresh();
      for (const sort of SORTS) {
        const pages = await walk(index, { filters: { status: 'any' }, sort, asOf: AS_OF, limit: 50 });
        const expected = [...stable, ...companies('Q', MOVING, 2)]
          .map((d) => keyOf(d, sort))
          .sort(compareKeys(sort.descending));
        assert.deepEqual(
          pages.flatMap((p) => p.documents.map((d) => keyOf(d, sort))),
          expected,
          `sorted by ${sort.descending ? '-' : ''}${sort.field}`,
        );
        assert.ok(pages.every((p) => p.total === STABLE + MOVING));
      }
    });

    test('criteria search while a load writes: unchanged companies once each and in place, keys only increase', async () => {
      const stable = companies('P', STABLE, 1);
      const moving = companies('Q', MOVING, 2);
      for (const sort of [SORTS[0]!, SORTS[4]!]) {
        await index.rebuild(
          (async function* () {
            yield [...stable, ...moving];
          })(),
        );
        await index.refresh();
        const next = random(7);
        let round = 0;
        // Each round: moving companies get new sort values (names too), unchanged companies are
        // written again as they are, and new companies arrive; all visible at once.
        const load = async () => {
          round += 1;
          const moved = Array.from({ length: 40 }, () => moving[Math.floor(next() * MOVING)]!).map((d) => ({
            ...d,
            net_assets: next() < 0.2 ? null : Math.round(next() * 1e6) - 1e5,
            name: `PAGED ${['ALPHA', 'OMEGA', 'AAA'][Math.floor(next() * 3)]} ${Math.floor(next() * 300)}`,
          }));
          const rewritten = Array.from({ length: 40 }, () => stable[Math.floor(next() * STABLE)]!);
          const added = companies(`N${String(round).padStart(3, '0')}`, 10, round);
          await index.upsertCompanies(once([...moved, ...rewritten, ...added]));
          await index.refresh();
        };
        const pages = await walk(index, { filters: { status: 'any' }, sort, asOf: AS_OF, limit: 100 }, load);
        assert.ok(round > 10, 'the load wrote while the walk went on');
        const keys = pages.flatMap((p) => p.documents.map((d) => keyOf(d, sort)));
        const compare = compareKeys(sort.descending);
        keys.slice(1).forEach((key, i) => assert.ok(compare(keys[i]!, key) < 0, `keys increase at ${i + 1}`));
        const stableSeen = keys.filter(([, number]) => number.startsWith('P'));
        assert.deepEqual(
          stableSeen,
          stable.map((d) => keyOf(d, sort)).sort(compare),
          'every unchanged company exactly once, in order',
        );
        assert.ok(pages.at(-1)!.total >= STABLE + MOVING);
      }
    });

    test('name search over every tier of a few thousand names: each once, in the ranking', async () => {
      const named = namedCompanies('S', 3_000, 3);
      await index.rebuild(
        (async function* () {
          yield named;
        })(),
      );
      await index.refresh();
      const phrase = normaliseCompanyName('pag sys');
      const expected = named.map((d) => nameKey(d, phrase)).sort(compareNameKeys);
      assert.deepEqual(
        [0, 1, 2, 3, 4, 5, 6, 7].filter((tier) => expected.some((key) => key[0] === tier)),
        [0, 1, 2, 3, 4, 5, 6, 7],
        'the names span every tier',
      );
      for (const limit of [37, 100]) {
        const pages = await walkNames(index, 'pag sys', limit);
        assert.deepEqual(
          pages.flatMap((p) => p.hits.map((hit) => nameKey(hit, phrase))),
          expected,
        );
        assert.ok(pages.every((p) => p.total === named.length));
      }
    });

    test('name search while a load writes: unchanged names once each and in place, keys only increase', async () => {
      const stable = namedCompanies('S', 2_000, 3);
      const moving = namedCompanies('T', 400, 4);
      await index.rebuild(
        (async function* () {
          yield [...stable, ...moving];
        })(),
      );
      await index.refresh();
      const phrase = normaliseCompanyName('pag sys');
      const next = random(9);
      let round = 0;
      const load = async () => {
        round += 1;
        const renamed = namedCompanies('T', MOVING, 100 + round).filter(() => next() < 0.1);
        const rewritten = Array.from({ length: 40 }, () => stable[Math.floor(next() * stable.length)]!);
        await index.upsertCompanies(once([...renamed, ...rewritten]));
        await index.refresh();
      };
      const pages = await walkNames(index, 'pag sys', 100, load);
      assert.ok(round > 10, 'the load wrote while the walk went on');
      const keys = pages.flatMap((p) => p.hits.map((hit) => nameKey(hit, phrase)));
      keys.slice(1).forEach((key, i) => assert.ok(compareNameKeys(keys[i]!, key) < 0, `keys increase at ${i + 1}`));
      assert.deepEqual(
        keys.filter(([, , number]) => number.startsWith('S')),
        stable.map((d) => nameKey(d, phrase)).sort(compareNameKeys),
        'every unchanged company exactly once, in order',
      );
    });
  });
}

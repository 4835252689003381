/**
 * What a gap's REST catch-up reads and writes to take deletions into account, on every store
 * (PGlite and a real PostgreSQL): StreamGaps.storedLinks (the stored items of one company from one
 * stream that could still be deleted, keyed as the stream keys them) and the PSC applier's
 * `deleted` event (the PSC marked ceased that day). The catch-up itself is proved through the
 * follower (test/follow/follow-gap-fill-lists.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOfficersApplier } from '../../src/adapters/postgres/officer-appliers.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { createStreamGaps } from '../../src/adapters/postgres/stream-gaps.ts';
import { pscApplier } from '../../src/adapters/postgres/stream-pscs.ts';
import type { PscRecord } from '../../src/domain/psc.ts';
import { parsePscLine } from '../../src/ownership/psc-line.ts';
import type { StreamEvent } from '../../src/ports/stream-appliers.ts';
import { officerItem } from '../../src/synthetic/officers.ts';
import { testStores, useStore } from '../support/databases.ts';
import { individualLine, statementLine } from '../support/psc-snapshot-lines.ts';

const ACME = '00000042';
const PSC = 'persons-with-significant-control';
const STATEMENTS = 'persons-with-significant-control-statements';
const pscLink = (id: string) => `/company/${ACME}/persons-with-significant-control/individual/${id}`;

function event(
  uri: string,
  data: Record<string, unknown>,
  publishedAt: string,
  type: 'changed' | 'deleted' = 'changed',
): StreamEvent {
  return {
    resource_kind: 'test',
    resource_uri: uri,
    resource_id: uri.slice(uri.lastIndexOf('/') + 1),
    data,
    event: { timepoint: 1, published_at: publishedAt, type },
  };
}

const dataOf = (line: string) => (JSON.parse(line) as { data: Record<string, unknown> }).data;

for (const kind of testStores) {
  describe(`${kind.name}: what a gap's catch-up reads and applies for deletions`, () => {
    const db = useStore(kind);

    test('storedLinks: appointments not deleted; PSCs and statements not ceased and keyed by their link', async () => {
      const gaps = createStreamGaps(db.sql);
      const officers = [1, 2, 3].map((personId) =>
        officerItem(5, { companyNumber: ACME, personId, appointedOn: '2020-01-01' }),
      );
      const links = officers.map((item) => (item.links as { self: string }).self);
      const other = officerItem(5, { companyNumber: '00000043', personId: 1, appointedOn: '2020-01-01' });
      await db.sql.transaction(async (tx) => {
        const applier = createOfficersApplier();
        await applier.apply(tx, [
          ...officers.map((item, i) => event(links[i]!, item, '2026-11-01T09:00:00')),
          event((other.links as { self: string }).self, other, '2026-11-01T09:00:00'),
        ]);
        await applier.apply(tx, [event(links[2]!, {}, '2026-11-02T09:00:00', 'deleted')]);
        await pscApplier(PSC).apply(tx, [
          event(pscLink('p1'), dataOf(individualLine(ACME, 'p1')), '2026-11-01T09:00:00'),
          event(pscLink('p2'), dataOf(individualLine(ACME, 'p2', { ceased_on: '2026-10-01' })), '2026-11-01T09:00:00'),
        ]);
        await pscApplier(STATEMENTS).apply(tx, [
          event(
            `/company/${ACME}/persons-with-significant-control-statements/s1`,
            dataOf(statementLine(ACME, 's1')),
            '2026-11-01T09:00:00',
          ),
        ]);
      });
      // A snapshot line without a self link (keyed by its etag) and an exemption: in no list.
      const { links: _links, ...unlinked } = dataOf(individualLine(ACME, 'p9'));
      const exemption = { kind: 'exemptions', etag: 'x1', links: { self: `/company/${ACME}/exemptions` } };
      const records = [unlinked, exemption].map((data) => {
        const line = parsePscLine(JSON.stringify({ company_number: ACME, data }));
        assert.equal(line.type, 'psc');
        return (line as { record: PscRecord }).record;
      });
      await createPscStore(db.sql).upsertPscs(records, '2026-11-01');

      assert.deepEqual(await gaps.storedLinks('officers', ACME), links.slice(0, 2).sort());
      assert.deepEqual(await gaps.storedLinks(PSC, ACME), [pscLink('p1')]);
      assert.deepEqual(await gaps.storedLinks(STATEMENTS, ACME), [
        `/company/${ACME}/persons-with-significant-control-statements/s1`,
      ]);
      assert.deepEqual(await gaps.storedLinks('officers', '00000044'), []);
      assert.equal(await gaps.storedLinks('charges', ACME), null);
      assert.equal(await gaps.storedLinks('filings', ACME), null);
    });

    test('a deleted PSC is kept ceased that day; an older record does not bring it back, a newer one does', async () => {
      const number = '00000050';
      const link = `/company/${number}/persons-with-significant-control/individual/d1`;
      const data = dataOf(individualLine(number, 'd1'));
      const state = async () =>
        (
          await db.sql.query<{ ceased: boolean; ceased_by_snapshot: string | null }>(
            `SELECT ceased, ceased_by_snapshot::text FROM psc WHERE company_number = $1 AND psc_id = 'd1'`,
            [number],
          )
        ).rows[0];
      const apply = (events: StreamEvent[]) => db.sql.transaction((tx) => pscApplier(PSC).apply(tx, events));
      await apply([event(link, data, '2026-11-01T09:00:00')]);
      // A deletion of a PSC not held changes nothing, and says so.
      assert.deepEqual(await apply([event(link.replace('d1', 'nobody'), {}, '2026-11-02T09:00:00', 'deleted')]), {
        companies: [],
      });
      assert.deepEqual(await apply([event(link, {}, '2026-11-03T09:00:00', 'deleted')]), { companies: [number] });
      assert.deepEqual(await state(), { ceased: true, ceased_by_snapshot: '2026-11-03' });
      await apply([event(link, data, '2026-11-02T09:00:00')]);
      assert.deepEqual(await state(), { ceased: true, ceased_by_snapshot: '2026-11-03' });
      await apply([event(link, data, '2026-11-04T09:00:00')]);
      assert.deepEqual(await state(), { ceased: false, ceased_by_snapshot: null });
    });
  });
}

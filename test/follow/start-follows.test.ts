/**
 * `ukcd start` with CH_STREAM_KEY follows the streams in the service's process, and /metrics says
 * how far: events applied by stream, the last timepoint, lag behind published_at, reconnections,
 * lines that were not events.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import { freshPostgres } from '../support/databases.ts';
import { parsePrometheusText, valueOf } from '../support/prometheus-text.ts';
import { startFakeStreamServer } from '../support/stream-server.ts';
import type { FakeStreamServer } from '../support/stream-server.ts';
import { companyEvent, waitFor } from '../support/stream-world.ts';
import { startService } from '../support/ukcd-start.ts';
import type { Service } from '../support/ukcd-start.ts';

describe('ukcd start follows the streams when CH_STREAM_KEY is set', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ukcd-start-follows-'));
  let db: Awaited<ReturnType<typeof freshPostgres>>;
  let server: FakeStreamServer;
  let service: Service;

  before(async () => {
    db = await freshPostgres();
    server = await startFakeStreamServer({ key: 'k' });
    service = await startService({
      DATABASE_URL: db.url,
      DATA_DIR: dir,
      PORT: '0',
      LOG_REQUESTS: 'false',
      CH_STREAM_KEY: 'k',
      CH_STREAM_URL: server.url,
      CH_STREAMS: 'companies,officers',
      UKCD_STREAM_INDEX_SECONDS: '1',
    });
  });
  after(async () => {
    service.child.kill('SIGTERM');
    await service.exited;
    await server.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an event applied shows in the store and on /metrics', async () => {
    await waitFor('the service to connect', async () => server.connected('companies') > 0);
    server.publish('companies', [
      companyEvent(7, '2026-11-27T09:00:00', '01234567', { company_name: 'NEW CO LIMITED' }),
    ]);
    await waitFor('the company stored', async () => {
      const rows = await db.sql.query(`SELECT 1 FROM companies WHERE company_number = '01234567'`);
      return rows.rowCount > 0;
    });
    const metrics = parsePrometheusText(await (await fetch(`${service.url}/metrics`)).text());
    assert.equal(valueOf(metrics, 'ukcd_stream_events_applied_total', { stream: 'companies' }), 1);
    assert.equal(valueOf(metrics, 'ukcd_stream_timepoint', { stream: 'companies' }), 7);
    assert.ok((valueOf(metrics, 'ukcd_stream_lag_seconds', { stream: 'companies' }) ?? -1) >= 0);
    assert.match(service.output.join(''), /streams: following/);
  });

  test('the search indexes are brought up to date after the events, and /metrics says when', async () => {
    await waitFor('/metrics to say the indexes were brought up to date', async () => {
      const metrics = parsePrometheusText(await (await fetch(`${service.url}/metrics`)).text());
      return (valueOf(metrics, 'ukcd_stream_index_updated_timestamp_seconds') ?? 0) > 0;
    });
    // The service's search (no ELASTICSEARCH_URL): the Postgres search in the store.
    const page = await createPgSearchIndex(db.sql).searchByName('NEW CO', 10);
    assert.deepEqual(
      page.hits.map((hit) => hit.company_number),
      ['01234567'],
    );
  });

  test('a line that is not an event is counted on /metrics and said in the log', async () => {
    server.publish('companies', [
      '{"resource_kind":"company-profile","data":',
      companyEvent(9, '2026-11-27T09:05:00', '01234567', { company_name: 'NEWER CO LIMITED' }),
    ]);
    await waitFor('the event after it stored', async () => {
      const rows = await db.sql.query(`SELECT 1 FROM companies WHERE name = 'NEWER CO LIMITED'`);
      return rows.rowCount > 0;
    });
    const metrics = parsePrometheusText(await (await fetch(`${service.url}/metrics`)).text());
    assert.equal(valueOf(metrics, 'ukcd_stream_bad_lines_total', { stream: 'companies' }), 1);
    assert.match(service.output.join(''), /stream companies: skipped a line that is not an event: not JSON/);
  });

  test('the officers stream is followed too: an appointment event is stored', async () => {
    await waitFor('the service to connect to officers', async () => server.connected('officers') > 0);
    const [line] = readFileSync(join(import.meta.dirname, '../support/streams/officers.jsonl'), 'utf8').split('\n');
    server.publish('officers', [line!]);
    await waitFor('the appointment stored', async () => {
      const rows = await db.sql.query<{ name: string; role: string }>(
        `SELECT name, role FROM officers WHERE company_number = '09123456'`,
      );
      return rows.rows.length === 1 && rows.rows[0]!.name === 'HOPPER, Grace Brewster';
    });
  });
});

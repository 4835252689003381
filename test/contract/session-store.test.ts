/**
 * The SessionStore contract, run against every store: PGlite and a real PostgreSQL server.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createSessionStore } from '../../src/adapters/postgres/session-store.ts';
import type { SessionStore } from '../../src/ports/sessions.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { testStores, useStore } from '../support/databases.ts';

let keys = 0;

/** A new API key row (the session's foreign key); returns its id. */
async function newKey(sql: Sql, plan: 'free' | 'pro' = 'pro'): Promise<number> {
  keys += 1;
  const result = await sql.query<{ id: number }>(
    `INSERT INTO api_keys (key_hash, prefix, plan) VALUES ($1, $2, $3) RETURNING id`,
    [`session-hash-${process.pid}-${keys}`, `ukcd_s${String(keys).padStart(7, '0')}`, plan],
  );
  return Number(result.rows[0]!.id);
}

const at = (iso: string) => new Date(iso);

for (const kind of testStores) {
  describe(`${kind.name}: SessionStore`, () => {
    const db = useStore(kind);
    let sessions: SessionStore;
    before(() => {
      sessions = createSessionStore(db.sql);
    });

    test('a session is found by its id hash with its key and CSRF token until it expires', async () => {
      const keyId = await newKey(db.sql);
      await sessions.create({
        idHash: 'a'.repeat(64),
        keyId,
        csrfToken: 'token-1',
        expiresAt: at('2026-11-23T12:00:00.000Z'),
      });
      const found = await sessions.find('a'.repeat(64), at('2026-11-23T11:59:59.999Z'));
      assert.ok(found);
      assert.equal(found.key.id, keyId);
      assert.equal(found.key.plan, 'pro');
      assert.equal(found.key.revoked_at, null);
      assert.equal(found.csrfToken, 'token-1');
      assert.equal(found.expiresAt, '2026-11-23T12:00:00.000Z');
      assert.equal(await sessions.find('a'.repeat(64), at('2026-11-23T12:00:00.000Z')), null, 'expired at the instant');
      assert.equal(await sessions.find('b'.repeat(64), at('2026-11-23T11:00:00.000Z')), null, 'an unknown id');
    });

    test('delete forgets the session and no other; deleting again is harmless', async () => {
      const keyId = await newKey(db.sql);
      const expiresAt = at('2099-01-01T00:00:00.000Z');
      await sessions.create({ idHash: 'c'.repeat(64), keyId, csrfToken: 't-c', expiresAt });
      await sessions.create({ idHash: 'd'.repeat(64), keyId, csrfToken: 't-d', expiresAt });
      await sessions.delete('c'.repeat(64));
      await sessions.delete('c'.repeat(64));
      const now = at('2026-11-23T00:00:00.000Z');
      assert.equal(await sessions.find('c'.repeat(64), now), null);
      assert.equal((await sessions.find('d'.repeat(64), now))?.csrfToken, 't-d');
    });

    test('a revoked key is seen through its session; a deleted key takes its sessions with it', async () => {
      const keyId = await newKey(db.sql, 'free');
      const expiresAt = at('2099-01-01T00:00:00.000Z');
      await sessions.create({ idHash: 'e'.repeat(64), keyId, csrfToken: 't-e', expiresAt });
      await db.sql.query(`UPDATE api_keys SET revoked_at = '2026-11-20T10:00:00Z' WHERE id = $1`, [keyId]);
      const now = at('2026-11-23T00:00:00.000Z');
      assert.equal((await sessions.find('e'.repeat(64), now))?.key.revoked_at, '2026-11-20T10:00:00.000Z');
      await db.sql.query('DELETE FROM api_keys WHERE id = $1', [keyId]);
      assert.equal(await sessions.find('e'.repeat(64), now), null);
      const left = await db.sql.query('SELECT 1 FROM web_sessions WHERE id_hash = $1', ['e'.repeat(64)]);
      assert.equal(left.rowCount, 0);
    });

    test('deleteExpired removes exactly the sessions expired by then', async () => {
      await db.sql.query('DELETE FROM web_sessions');
      const keyId = await newKey(db.sql);
      await sessions.create({ idHash: '1'.repeat(64), keyId, csrfToken: 'x', expiresAt: at('2026-01-01T00:00:00Z') });
      await sessions.create({ idHash: '2'.repeat(64), keyId, csrfToken: 'y', expiresAt: at('2026-01-02T00:00:00Z') });
      await sessions.create({ idHash: '3'.repeat(64), keyId, csrfToken: 'z', expiresAt: at('2026-01-03T00:00:00Z') });
      assert.equal(await sessions.deleteExpired(at('2026-01-02T00:00:00Z')), 2);
      assert.equal(await sessions.deleteExpired(at('2026-01-02T00:00:00Z')), 0);
      const left = await db.sql.query<{ id_hash: string }>('SELECT id_hash FROM web_sessions');
      assert.deepEqual(
        left.rows.map((row) => row.id_hash),
        ['3'.repeat(64)],
      );
    });

    test('an id hash is used once: a second session under it is refused', async () => {
      const keyId = await newKey(db.sql);
      const session = { idHash: 'f'.repeat(64), keyId, csrfToken: 't', expiresAt: at('2099-01-01T00:00:00Z') };
      await sessions.create(session);
      await assert.rejects(sessions.create({ ...session, csrfToken: 'other' }));
      assert.equal((await sessions.find('f'.repeat(64), at('2026-01-01T00:00:00Z')))?.csrfToken, 't');
    });
  });
}

/**
 * `ukcd keys issue|list|revoke`, the real command on a real PostgreSQL database: a key is printed
 * once and stored only as its hash, listed by its prefix, and revoked by it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createKeyStore } from '../../src/adapters/postgres/key-store.ts';
import { hashApiKey, keyPrefix, usageMonth } from '../../src/domain/api-keys.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { freshPostgres } from '../support/databases.ts';
import { repoRoot } from '../support/samples.ts';

describe('ukcd keys', () => {
  let db: Awaited<ReturnType<typeof freshPostgres>>;
  let sql: Sql;
  before(async () => {
    db = await freshPostgres();
    sql = db.sql;
  });
  after(async () => db?.drop());

  const ukcd = (...args: string[]) =>
    spawnSync(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), 'keys', ...args], {
      env: { ...process.env, DATABASE_URL: db.url },
      encoding: 'utf8',
    });

  /** Every stored row of the key tables, as text. */
  const dump = async () => {
    const rows = await sql.query<{ row: string }>(
      `SELECT to_jsonb(k)::text AS row FROM api_keys k UNION ALL SELECT to_jsonb(u)::text FROM api_usage u`,
    );
    return rows.rows.map((r) => r.row).join('\n');
  };

  test('issue a pro key, list it, revoke it by its prefix; only the hash is stored', async () => {
    const issued = ukcd('issue', '--plan', 'pro', '--email', 'ops@example.com');
    assert.equal(issued.status, 0, issued.stderr);
    const key = issued.stdout.trim();
    assert.match(key, /^ukcd_[A-Za-z0-9]{32}$/);
    assert.equal(issued.stdout, `${key}\n`, 'stdout carries the key and nothing else');
    assert.match(issued.stderr, /shown once/);
    assert.ok(!issued.stderr.includes(key), 'the key is not repeated on stderr');
    const prefix = keyPrefix(key);

    const stored = await sql.query<{ key_hash: string; prefix: string; plan: string; email: string }>(
      'SELECT key_hash, prefix, plan, email FROM api_keys',
    );
    assert.deepEqual(stored.rows, [{ key_hash: hashApiKey(key), prefix, plan: 'pro', email: 'ops@example.com' }]);
    assert.notEqual(stored.rows[0]?.key_hash, key);
    const text = await dump();
    assert.ok(text.includes(prefix));
    assert.ok(!text.includes(key), 'the key appears nowhere in the database');
    assert.ok(!text.includes(key.slice(5)), 'nor does its random part');

    // Two requests this month show in the list.
    const record = await createKeyStore(sql).findByHash(hashApiKey(key));
    assert.ok(record);
    const month = usageMonth(new Date());
    await createKeyStore(sql).consumeRequest(record.id, month, 5000);
    await createKeyStore(sql).consumeRequest(record.id, month, 5000);

    const listed = ukcd('list', prefix.slice(0, 9));
    assert.equal(listed.status, 0, listed.stderr);
    const lines = listed.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2, listed.stdout);
    assert.match(lines[0] ?? '', /^prefix\s+plan\s+email\s+created\s+revoked\s+used/);
    assert.match(
      lines[1] ?? '',
      new RegExp(`^${prefix}\\s+pro\\s+ops@example\\.com\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+-\\s+2 / 5000$`),
    );
    assert.ok(!listed.stdout.includes(key));
    assert.equal(ukcd('list', 'ukcd_nomatch').stdout.trimEnd().split('\n').length, 1, 'only the header');

    const revoked = ukcd('revoke', prefix);
    assert.equal(revoked.status, 0, revoked.stderr);
    assert.match(revoked.stdout, new RegExp(`^${prefix}\\s+pro\\s+ops@example\\.com\\s+\\S+Z\\s+\\d{4}-\\S+Z$`, 'm'));
    assert.match(revoked.stderr, /revoked 1 key/);
    assert.ok((await createKeyStore(sql).findByHash(hashApiKey(key)))?.revoked_at);

    const relisted = ukcd('list');
    assert.match(relisted.stdout, new RegExp(`^${prefix}\\s+pro\\s+\\S+\\s+\\S+Z\\s+\\d{4}-\\S+Z\\s+2 / 5000$`, 'm'));

    // Revoking again changes nothing and says so.
    const again = ukcd('revoke', prefix);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /already revoked/);
    assert.equal(again.stdout, '');
  });

  test('a free key; revoking by the whole key; nothing matched is exit 1', async () => {
    const issued = ukcd('issue', '--plan', 'free');
    assert.equal(issued.status, 0, issued.stderr);
    const key = issued.stdout.trim();
    assert.equal((await createKeyStore(sql).findByHash(hashApiKey(key)))?.plan, 'free');

    const revoked = ukcd('revoke', key);
    assert.equal(revoked.status, 0, revoked.stderr);
    assert.match(revoked.stdout, new RegExp(`^${keyPrefix(key)}\\s+free`, 'm'));
    assert.ok((await createKeyStore(sql).findByHash(hashApiKey(key)))?.revoked_at);

    const none = ukcd('revoke', 'ukcd_0000000');
    assert.equal(none.status, 1);
    assert.match(none.stderr, /no key starts with ukcd_0000000/);
    const unknownKey = ukcd('revoke', `ukcd_${'x'.repeat(32)}`);
    assert.equal(unknownKey.status, 1);
  });

  test('unusable arguments: usage on stderr, exit 2, nothing written', async () => {
    const before = await dump();
    const cases: string[][] = [
      [],
      ['frobnicate'],
      ['issue', '--plan', 'gold'],
      ['issue', '--email', 'not-an-address'],
      ['issue', 'extra'],
      ['issue', '--colour'],
      ['list', 'a', 'b'],
      ['revoke'],
      // Too short a prefix could revoke every key.
      ['revoke', 'ukcd_'],
      ['revoke', 'ukcd_ab'],
      ['revoke', 'ukcd_abc', 'ukcd_def'],
    ];
    for (const args of cases) {
      const run = ukcd(...args);
      assert.equal(run.status, 2, `ukcd keys ${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /usage:/);
      assert.equal(run.stdout, '');
    }
    assert.match(ukcd('revoke', 'ukcd_').stderr, /shorter than 9 characters/);
    assert.equal(await dump(), before);
  });
});

/**
 * Versioned migrations: the numbered .sql files beside this module, applied in order, each once,
 * each in its own transaction, recorded in schema_migrations. Safe to run from several processes
 * at once: an advisory lock serialises them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Sql } from '../../ports/sql.ts';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');
const LOCK_KEY = 7_241_903;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, file.indexOf('_'))),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(join(dir, file), 'utf8'),
    }));
}

/** Apply every migration not yet applied; returns the names applied now. */
export async function migrate(sql: Sql, migrations = listMigrations()): Promise<string[]> {
  await sql.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (seen.rowCount > 0) return false;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  return applied;
}

/** Split a migration into statements at semicolons that end a line (our files keep to that). */
function splitStatements(text: string): string[] {
  return text
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}

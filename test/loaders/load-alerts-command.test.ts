/**
 * `ukcd load` ends by detecting alerts, in a real process on the embedded store: the summary line
 * is printed, and the loader neither needs nor creates the webhook secret key (queueing a
 * delivery signs nothing; only the service seals and opens secrets).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { WEBHOOK_SECRET_KEY_FILE } from '../../src/composition/open-store.ts';
import { registerRows, writeRegisterCsv } from '../support/register-csv.ts';
import { repoRoot } from '../support/samples.ts';

const dir = mkdtempSync(join(tmpdir(), 'ukcd-load-alerts-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('ukcd load register prints the alerts line and writes no webhook secret key', async () => {
  const path = join(dir, 'BasicCompanyDataAsOneFile-2025-01-01.csv');
  writeRegisterCsv(path, registerRows(3));
  const dataDir = join(dir, 'data');
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.WEBHOOK_SECRET_KEY;
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), 'load', 'register', path, '--no-index'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  assert.equal(code, 0, stderr);
  assert.match(stderr, /^alerts: 0 new for 0 keys, 0 deliveries queued \(/m);
  assert.equal(existsSync(join(dataDir, WEBHOOK_SECRET_KEY_FILE)), false);
});

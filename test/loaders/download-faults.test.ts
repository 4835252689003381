/**
 * Downloads against servers that misbehave, over real sockets: a mirror speaking HTTP/1.0 that
 * closes each connection once a file is out (as `python3 -m http.server` does), and servers that
 * cut a download part-way, reset it, go silent, or answer 416 and 429. Each ends with the whole
 * file, or with a message naming the URL and what to do; never a crash, and never a `.part` that
 * spoils the next run.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import yazl from 'yazl';
import { syntheticFilings } from '../../src/synthetic/filings.ts';
import { downloadResumable } from '../../loaders/sync/resumable-download.ts';
import type { Http10Server } from '../support/http10-server.ts';
import { startHttp10Server } from '../support/http10-server.ts';
import { repoRoot } from '../support/samples.ts';

let root: string;
let served: string;
let server: Http10Server;
/**
 * A daily accounts zip of about 65 KB (two real filings, stored): of this size the whole answer
 * and the server's close arrive before the client starts reading the body, which is what crashed
 * undici 7's HTTP/1 parser.
 */
const DAILY = 'Accounts_Bulk_Data-2024-03-05.zip';
/** 3 MB of random bytes, for the faults that need no zip. */
const BLOB = 'Accounts_Bulk_Data-2024-03-06.zip';

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'ukcd-download-faults-'));
  served = join(root, 'served');
  await mkdir(served);
  const zip = new yazl.ZipFile();
  let count = 0;
  for (const filing of syntheticFilings({ seed: 5, companies: 40, yearsPerCompany: 1, fromYear: 2023 })) {
    zip.addBuffer(filing.bytes, filing.fileName, { compress: false });
    if (++count === 2) break;
  }
  zip.end();
  await new Promise<void>((done, fail) => {
    zip.outputStream
      .pipe(createWriteStream(join(served, DAILY)))
      .on('close', done)
      .on('error', fail);
  });
  await writeFile(join(served, BLOB), randomBytes(3_000_000));
  // The pages, as static files: the mirror serves them like any other file.
  const page = (files: string[]) =>
    `<html><body><ul>${files.map((f) => `<li><a href="${f}">${f}</a></li>`).join('')}</ul></body></html>`;
  await writeFile(join(served, 'en_accountsdata.html'), page([DAILY]));
  await writeFile(join(served, 'en_output.html'), page([]));
  await writeFile(join(served, 'en_pscdata.html'), page([]));
  server = await startHttp10Server(served);
});

after(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

function ukcd(env: Record<string, string>, ...args: string[]): Promise<{ status: number; stderr: string }> {
  return new Promise((done) => {
    // Asynchronous: the server answering the child runs in this process.
    execFile(
      process.execPath,
      [join(repoRoot, 'bin/ukcd.mjs'), ...args],
      { env: { ...process.env, ...env }, timeout: 240_000 },
      (error, _stdout, stderr) => done({ status: error ? ((error.code as number | undefined) ?? -1) : 0, stderr }),
    );
  });
}

/** Downloads `name` in a process of its own that loaded the Elasticsearch client first, as ukcd's commands do. */
function downloadInChild(name: string, target: string): Promise<{ status: number | null; stderr: string }> {
  const script = `
    await import('@elastic/elasticsearch');
    const { downloadResumable } = await import(${JSON.stringify(join(repoRoot, 'loaders/sync/resumable-download.ts'))});
    await downloadResumable(${JSON.stringify(server.url + name)}, ${JSON.stringify(target)}, { attempts: 2, retryDelayMs: 10 });`;
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: repoRoot, timeout: 60_000 },
      (error, _stdout, stderr) => done({ status: error ? ((error.code as number | undefined) ?? -1) : 0, stderr }),
    );
  });
}

describe('a mirror that speaks HTTP/1.0 and closes each connection', () => {
  test('a file whose answer and close arrive before the body is read downloads whole, without a crash', async () => {
    const dir = await mkdtemp(join(root, 'child-'));
    // Five times: on undici 7 this crashed nearly every time, and once is enough to fail.
    for (let run = 1; run <= 5; run++) {
      const target = join(dir, `${run}-${DAILY}`);
      const { status, stderr } = await downloadInChild(DAILY, target);
      assert.doesNotMatch(stderr, /AssertionError|assert\(!this\.paused\)/, `run ${run}`);
      assert.equal(status, 0, stderr);
      assert.deepEqual(await readFile(target), await readFile(join(served, DAILY)));
    }
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.includes('.part')),
      [],
    );
  });

  test('downloads the file whole, loads it and exits 0; nothing is left in downloads', async () => {
    const dataDir = await mkdtemp(join(root, 'cli-'));
    const env = { DATA_DIR: dataDir, DATABASE_URL: '', ELASTICSEARCH_URL: '', UKCD_WORKERS: '1' };
    const run = await ukcd(env, 'sync', '--only', 'accounts', '--since', '2024-03-01', '--base-url', server.url);
    assert.doesNotMatch(run.stderr, /AssertionError|assert\(/);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`${DAILY}: downloaded 0\\.\\d MB`));
    assert.match(run.stderr, /sync: accounts: 2 filings read/);
    assert.deepEqual(
      (await readdir(join(dataDir, 'downloads'))).filter((name) => name !== 'sync.lock'),
      [],
      'no .part, no file left',
    );
  });
});

describe('downloads from servers that fail part-way', { concurrency: false }, () => {
  const quick = { attempts: 3, retryDelayMs: 10, maxRetryDelayMs: 5_000, idleTimeoutMs: 5_000 };
  let dir: string;
  let lines: string[];
  const whole = () => readFile(join(served, BLOB));
  const blobRequests = () => server.requests.filter((r) => r.path === BLOB).map((r) => [r.range, r.status]);

  before(async () => {
    dir = await mkdtemp(join(root, 'faults-'));
  });

  async function download(options: Partial<typeof quick> = {}) {
    lines = [];
    server.requests.length = 0;
    const target = join(dir, BLOB);
    await rm(target, { force: true });
    const result = await downloadResumable(server.url + BLOB, target, {
      ...quick,
      ...options,
      log: (line) => lines.push(line),
    });
    assert.deepEqual(await readFile(target), await whole());
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.includes('.part')),
      [],
      'no .part left',
    );
    return result;
  }

  test('a connection closed part-way resumes where it stopped', async () => {
    server.ranges = true;
    server.fail(BLOB, { kind: 'drop', afterBytes: 1_000_000 });
    const result = await download();
    const [first, second] = blobRequests();
    assert.deepEqual(first, [null, 200]);
    // From what reached the disk: at most what was sent.
    const from = Number(/^bytes=(\d+)-$/.exec(String(second?.[0]))?.[1]);
    assert.ok(from > 0 && from <= 1_000_000, String(second?.[0]));
    assert.equal(second?.[1], 206);
    assert.equal(result.resumed, 1);
    assert.match(lines.join('\n'), /attempt 1 of 3 failed \(the connection broke after \d+ of 3000000 bytes/);
  });

  test('a connection reset part-way resumes from the bytes that reached the disk', async () => {
    server.ranges = true;
    server.fail(BLOB, { kind: 'reset', afterBytes: 1_500_000 });
    const result = await download();
    assert.equal(result.attempts, 2);
    const [first, second] = blobRequests();
    assert.deepEqual(first, [null, 200]);
    assert.match(String(second?.[0]), /^bytes=\d+-$/);
    assert.match(lines.join('\n'), /attempt 1 of 3 failed/);
  });

  test('a server that goes silent is given up on after the idle time, and the download resumes', async () => {
    server.ranges = true;
    server.fail(BLOB, { kind: 'stall', afterBytes: 500_000 });
    const result = await download({ idleTimeoutMs: 300 });
    assert.equal(result.resumed, 1);
    assert.deepEqual(blobRequests(), [
      [null, 200],
      ['bytes=500000-', 206],
    ]);
    assert.match(lines.join('\n'), /attempt 1 of 3 failed \(nothing received for 300 ms\)/);
  });

  test('a server without ranges (HTTP/1.0, no validator) is asked for the whole file again', async () => {
    server.ranges = false;
    server.fail(BLOB, { kind: 'drop', afterBytes: 700_000 }, { kind: 'reset', afterBytes: 200_000 });
    const result = await download();
    assert.deepEqual(blobRequests(), [
      [null, 200],
      [null, 200],
      [null, 200],
    ]);
    assert.equal(result.resumed, 0);
  });

  test('429 is waited out for as long as Retry-After asks, within the cap', async () => {
    server.ranges = true;
    server.fail(BLOB, { kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    const result = await download();
    assert.ok(Date.now() - started >= 1_000, 'waited the second asked for');
    assert.equal(result.attempts, 2);
    assert.deepEqual(blobRequests(), [
      [null, 429],
      [null, 200],
    ]);
  });

  test('a .part the server cannot continue (416) is thrown away and the file fetched whole; an empty one too', async () => {
    server.ranges = true;
    const target = join(dir, BLOB);
    const info = await stat(join(served, BLOB));
    const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    // Longer than the file: what a file replaced by a shorter one on the server leaves behind.
    await writeFile(`${target}.part`, Buffer.concat([await whole(), Buffer.from('more')]));
    await writeFile(`${target}.part.json`, JSON.stringify({ url: server.url + BLOB, validator: etag, total: null }));
    lines = [];
    server.requests.length = 0;
    const result = await downloadResumable(server.url + BLOB, target, { ...quick, log: (line) => lines.push(line) });
    assert.deepEqual(blobRequests(), [
      [`bytes=${info.size + 4}-`, 416],
      [null, 200],
    ]);
    assert.equal(result.attempts, 2);
    assert.deepEqual(await readFile(target), await whole());

    // An empty .part, as the crash on undici 7 left: the next run starts from the beginning.
    await rm(target);
    await writeFile(`${target}.part`, '');
    await writeFile(`${target}.part.json`, JSON.stringify({ url: server.url + BLOB, validator: etag, total: 5 }));
    server.requests.length = 0;
    await downloadResumable(server.url + BLOB, target, quick);
    assert.deepEqual(blobRequests(), [[null, 200]]);
    assert.deepEqual(await readFile(target), await whole());
  });

  test('the last failure names the URL and what to do; bytes that can be resumed are kept, others removed', async () => {
    const target = join(dir, BLOB);
    await rm(target, { force: true });
    server.ranges = true;
    server.fail(BLOB, { kind: 'drop', afterBytes: 100_000 }, { kind: 'drop', afterBytes: 100_000 });
    await assert.rejects(downloadResumable(server.url + BLOB, target, { ...quick, attempts: 2 }), (error: Error) => {
      const kept =
        /the (\d+) bytes received are kept in (.*)\.part, and running the command again resumes from them$/.exec(
          error.message,
        );
      assert.ok(error.message.startsWith(`${server.url}${BLOB}: gave up after 2 attempts: the connection broke`));
      assert.equal(kept?.[2], target, error.message);
      return true;
    });
    const held = (await stat(`${target}.part`)).size;
    assert.ok(held > 0 && held <= 200_000, String(held));

    server.ranges = false;
    server.fail(BLOB, { kind: 'reset', afterBytes: 100_000 });
    await assert.rejects(downloadResumable(server.url + BLOB, target, { ...quick, attempts: 1 }), (error: Error) => {
      assert.match(error.message, new RegExp(`^${server.url}${BLOB}: gave up after 1 attempts: `));
      assert.match(error.message, /check that this URL answers from here .* and run the command again$/);
      return true;
    });
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.includes('.part')),
      [],
      'nothing to resume from is kept',
    );
    server.ranges = true;
  });
});

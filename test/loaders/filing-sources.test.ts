/**
 * Filing sources and `ukcd parse` over real sample files packed the way Companies House ships
 * them: every filing yields a result line, every unreadable thing a named problem.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { filingSources } from '../../loaders/filing-sources.ts';
import type { RepeatedMember, SourceProblem } from '../../loaders/filing-sources.ts';
import { runParseCommand } from '../../loaders/parse-command.ts';
import { accountsSamplesDir, repoRoot } from '../support/samples.ts';
import { writeZip } from '../support/zip.ts';

const sample = (name: string) => readFileSync(join(accountsSamplesDir, name));

async function collect(paths: string[]) {
  const problems: SourceProblem[] = [];
  const names: string[] = [];
  let expected = 0;
  for await (const source of filingSources(paths, {
    onProblem: (p) => problems.push(p),
    onExpected: (n) => (expected += n),
  })) {
    names.push(source.name);
  }
  return { names, problems, expected };
}

/** A zip read with its repeats asked for: each filing as "name: text", and how many repeats were known as each came. */
async function collectWithRepeats(zipPath: string) {
  const problems: SourceProblem[] = [];
  const repeats: RepeatedMember[] = [];
  const got: string[] = [];
  const repeatsKnown: number[] = [];
  for await (const source of filingSources([zipPath], {
    onProblem: (p) => problems.push(p),
    onRepeated: (r) => repeats.push(r),
  })) {
    repeatsKnown.push(repeats.length);
    got.push(`${source.name}: ${source.bytes.toString()}`);
  }
  return { problems, repeats, got, repeatsKnown };
}

describe('filing sources', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ukcd-sources-'));

  test('a bulk zip yields each member, and a nested CIC zip as one filing', async () => {
    const zipPath = join(dir, 'Accounts_Bulk_Data-2024-05-03.zip');
    await writeZip(zipPath, {
      'Prod223_3384_14033910_20220831.html': sample('Prod223_3384_14033910_20220831.html'),
      'Prod224_0042_02771600_20160930.xml': sample('Prod224_0042_02771600_20160930.xml'),
      'Prod223_3951_15052776_20240831_CIC.zip': sample('Prod223_3951_15052776_20240831_CIC.zip'),
    });
    const { names, problems, expected } = await collect([zipPath]);
    assert.deepEqual(problems, []);
    assert.equal(expected, 3);
    assert.deepEqual(names.sort(), [
      'Prod223_3384_14033910_20220831.html',
      'Prod223_3951_15052776_20240831_CIC.zip',
      'Prod224_0042_02771600_20160930.xml',
    ]);
  });

  test('a folder is walked; a missing path and a corrupt zip are named problems', async () => {
    const folder = join(dir, 'folder');
    spawnSync('mkdir', ['-p', folder]);
    writeFileSync(join(folder, 'Prod223_3384_14033910_20220831.html'), sample('Prod223_3384_14033910_20220831.html'));
    writeFileSync(join(folder, 'Accounts_Bulk_Data-2024-01-02.zip'), Buffer.from('this is not a zip'));
    const { names, problems } = await collect([folder, join(dir, 'missing.zip')]);
    assert.deepEqual(names, ['Prod223_3384_14033910_20220831.html']);
    assert.deepEqual(
      problems.map((p) => p.error.code),
      ['bad_zip', 'unreadable'],
    );
    assert.match(problems[0]!.file, /Accounts_Bulk_Data-2024-01-02\.zip$/);
  });

  test('a nested zip with no document is a named problem', async () => {
    const inner = join(dir, 'inner.zip');
    await writeZip(inner, { 'readme.txt': Buffer.from('nothing here') });
    const outer = join(dir, 'Accounts_Bulk_Data-2024-01-03.zip');
    await writeZip(outer, { 'Prod223_0001_01234567_20231231_CIC.zip': readFileSync(inner) });
    const { names, problems } = await collect([outer]);
    assert.deepEqual(names, []);
    assert.equal(problems[0]?.error.code, 'no_filing_in_zip');
    assert.equal(problems[0]?.file, 'Prod223_0001_01234567_20231231_CIC.zip');
  });

  test('a member failing its CRC check is reported and the rest of the zip is still read', async () => {
    const zipPath = join(dir, 'Accounts_Bulk_Data-2024-01-05.zip');
    const good = sample('Prod223_3384_14033910_20220831.html');
    await writeZip(zipPath, {
      'Prod223_0001_01234567_20231231.html': Buffer.from(good),
      'Prod223_3384_14033910_20220831.html': good,
    });
    // Flip one byte of the first member's stored data (yazl stores it deflated; any change breaks the CRC).
    const bytes = readFileSync(zipPath);
    const dataStart = 30 + 'Prod223_0001_01234567_20231231.html'.length;
    bytes[dataStart + 10] = bytes[dataStart + 10]! ^ 0xff;
    writeFileSync(zipPath, bytes);
    const { names, problems } = await collect([zipPath]);
    assert.deepEqual(names, ['Prod223_3384_14033910_20220831.html']);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.file, 'Prod223_0001_01234567_20231231.html');
    assert.equal(problems[0]!.error.code, 'bad_zip');
  });

  // Each case: the members of a bulk zip in order (name, content); what is yielded (name: content)
  // and reported when repeats are asked for, and what is yielded when they are not.
  const repeatCases: {
    title: string;
    members: [string, string][];
    yielded: string[];
    repeated: [string, number][];
  }[] = [
    {
      title: 'no name repeated',
      members: [
        ['a.html', '1'],
        ['b.html', '2'],
      ],
      yielded: ['a.html: 1', 'b.html: 2'],
      repeated: [],
    },
    {
      title: 'a name twice, the copies apart',
      members: [
        ['a.html', '1'],
        ['b.html', '2'],
        ['a.html', '3'],
      ],
      yielded: ['b.html: 2', 'a.html: 3'],
      repeated: [['a.html', 2]],
    },
    {
      title: 'a name three times, another twice in a row',
      members: [
        ['a.html', '1'],
        ['b.html', '2'],
        ['b.html', '3'],
        ['a.html', '4'],
        ['c.html', '5'],
        ['a.html', '6'],
      ],
      yielded: ['b.html: 3', 'c.html: 5', 'a.html: 6'],
      // In the order the repeats are met: b's second copy comes before a's.
      repeated: [
        ['b.html', 2],
        ['a.html', 3],
      ],
    },
    {
      title: 'names differing only in case or folder are different members',
      members: [
        ['a.html', '1'],
        ['A.html', '2'],
        ['x/a.html', '3'],
      ],
      yielded: ['a.html: 1', 'A.html: 2', 'x/a.html: 3'],
      repeated: [],
    },
  ];
  for (const [i, { title, members, yielded, repeated }] of repeatCases.entries()) {
    test(`a bulk zip with ${title}: the last copy of each name, each repeated name reported once`, async () => {
      const zipPath = join(dir, `Accounts_Bulk_Data-2024-02-0${i + 1}.zip`);
      await writeZip(
        zipPath,
        members.map(([name, content]) => [name, Buffer.from(content)] as const),
      );
      const { problems, repeats, got, repeatsKnown } = await collectWithRepeats(zipPath);
      // Every repeat is known before the zip's first filing.
      assert.deepEqual(
        repeatsKnown,
        got.map(() => repeated.length),
      );
      assert.deepEqual(problems, []);
      assert.deepEqual(got, yielded);
      assert.deepEqual(
        repeats,
        repeated.map(([file, copies]) => ({ zip: zipPath, file, copies })),
      );
      // Not asked for repeats: every copy, in the zip's order.
      const all: string[] = [];
      for await (const source of filingSources([zipPath], { onProblem: (p) => assert.fail(p.error.message) }))
        all.push(`${source.name}: ${source.bytes.toString()}`);
      assert.deepEqual(
        all,
        members.map(([name, content]) => `${name}: ${content}`),
      );
    });
  }

  test('a damaged central directory: the members before the damage, the later copy of a repeat among them, then the problem', async () => {
    const zipPath = join(dir, 'Accounts_Bulk_Data-2024-02-10.zip');
    const names = ['a.html', 'b.html', 'a.html', 'c.html', 'b.html'];
    await writeZip(
      zipPath,
      names.map((name, i) => [name, Buffer.from(String(i))] as const),
    );
    // Break the signature of the fourth central directory record (c.html): reading stops there.
    const bytes = readFileSync(zipPath);
    const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
    let at = -1;
    for (let n = 0; n < 4; n++) at = bytes.indexOf(signature, at + 1);
    bytes[at] = 0;
    writeFileSync(zipPath, bytes);
    const { problems, repeats, got } = await collectWithRepeats(zipPath);
    assert.deepEqual(got, ['b.html: 1', 'a.html: 2']);
    assert.deepEqual(repeats, [{ zip: zipPath, file: 'a.html', copies: 2 }]);
    assert.deepEqual(
      problems.map((p) => [p.file, p.error.code]),
      [[zipPath, 'bad_zip']],
    );
    assert.match(problems[0]!.error.message, /^stopped reading: /);
  });

  test('members over the size limit are refused without being read', async () => {
    const zipPath = join(dir, 'Accounts_Bulk_Data-2024-01-04.zip');
    await writeZip(zipPath, { 'Prod223_0001_01234567_20231231.html': Buffer.alloc(5000, 0x20) });
    const problems: SourceProblem[] = [];
    for await (const _ of filingSources([zipPath], { onProblem: (p) => problems.push(p) }, 1000))
      assert.fail('nothing should be yielded');
    assert.equal(problems[0]?.error.code, 'too_large');
  });
});

describe('ukcd parse', () => {
  test('prints one JSON line per filing and a failure line per bad one, and exits 1 on failures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ukcd-parse-'));
    const zipPath = join(dir, 'Accounts_Bulk_Data-2024-05-03.zip');
    await writeZip(zipPath, {
      'Prod223_3384_NI681295_20220831.html': sample('Prod223_3384_NI681295_20220831.html'),
      'Prod223_0001_01234567_20231231.html': sample('Prod223_3384_NI681295_20220831.html').subarray(0, 4000),
    });
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const err = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
    const errChunks: Buffer[] = [];
    (err as unknown as PassThrough).on('data', (c: Buffer) => errChunks.push(c));
    const code = await runParseCommand([zipPath], out, err);
    const lines = Buffer.concat(chunks)
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(code, 1);
    assert.equal(lines.length, 2);
    const ok = lines.find((l) => l.company_number === 'NI681295');
    assert.equal(ok.current.net_assets, 3437);
    assert.equal(ok.zip, zipPath);
    const bad = lines.find((l) => l.error);
    assert.deepEqual(
      { file: bad.file, code: bad.error.code },
      { file: 'Prod223_0001_01234567_20231231.html', code: 'truncated' },
    );
    assert.match(Buffer.concat(errChunks).toString(), /parsed 1 of 2 filings .*1 failed: truncated 1/);
  });

  test('the ukcd binary runs from a fresh checkout and exits 0 when everything parses', () => {
    const run = spawnSync(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), 'parse', accountsSamplesDir], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trim().split('\n');
    assert.equal(lines.length, readdirSync(accountsSamplesDir).length);
    assert.match(run.stderr, /parsed 52 of 52 filings/);
  });
});

/**
 * Register snapshot files: the real names (one file, or numbered parts), one CSV per zip with the
 * same name, a header in every part, CRLF line endings, and rows that are exactly the snapshot's.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import yauzl from 'yauzl';
import { registerSnapshotFileName, writeRegisterSnapshot } from '../../src/synthetic/register-files.ts';
import type { RegisterSnapshotFiles } from '../../src/synthetic/register-files.ts';
import { formatRegisterCsvLine, REGISTER_CSV_HEADER, registerSnapshot } from '../../src/synthetic/register.ts';

interface Member {
  name: string;
  text: string;
  modified: Date;
}

function readZip(path: string): Promise<Member[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const members: Member[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(members));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            members.push({ name: entry.fileName, text, modified: entry.getLastModDate() });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

const OPTIONS = { seed: 9, companies: 1200, snapshotDate: '2024-06-01' };
const EXPECTED_LINES = [...registerSnapshot(OPTIONS)].map(formatRegisterCsvLine);

/** Data lines of a CSV file's text, after checking its header and line endings. */
function dataLines(text: string): string[] {
  assert.ok(text.endsWith('\r\n'));
  assert.doesNotMatch(text.replace(/\r\n/g, ''), /[\r\n]/, 'every line ends in CRLF');
  const lines = text.slice(0, -2).split('\r\n');
  assert.equal(lines[0], REGISTER_CSV_HEADER);
  return lines.slice(1);
}

describe('registerSnapshotFileName', () => {
  const cases: { name: string; date: string; part?: number; parts?: number; want: string }[] = [
    { name: 'one file', date: '2024-06-01', want: 'BasicCompanyDataAsOneFile-2024-06-01' },
    {
      name: 'one file, said explicitly',
      date: '2024-06-01',
      part: 1,
      parts: 1,
      want: 'BasicCompanyDataAsOneFile-2024-06-01',
    },
    {
      name: 'first of seven parts',
      date: '2024-06-01',
      part: 1,
      parts: 7,
      want: 'BasicCompanyData-2024-06-01-part1_7',
    },
    { name: 'last of seven parts', date: '2021-02-01', part: 7, parts: 7, want: 'BasicCompanyData-2021-02-01-part7_7' },
  ];
  for (const { name, date, part, parts, want } of cases) {
    test(name, () => assert.equal(registerSnapshotFileName(date, part, parts), want));
  }
});

describe('writeRegisterSnapshot', () => {
  let dir: string;
  let single: RegisterSnapshotFiles;
  let parts: RegisterSnapshotFiles;
  let bare: RegisterSnapshotFiles;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'register-files-'));
    single = await writeRegisterSnapshot({ ...OPTIONS, outDir: join(dir, 'single') });
    parts = await writeRegisterSnapshot({ ...OPTIONS, outDir: join(dir, 'parts'), parts: 3 });
    bare = await writeRegisterSnapshot({ ...OPTIONS, outDir: join(dir, 'bare'), parts: 2, zip: false });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('one zip named as Companies House names it, holding one CSV of the same name', async () => {
    assert.deepEqual(await readdir(join(dir, 'single')), ['BasicCompanyDataAsOneFile-2024-06-01.zip']);
    assert.deepEqual(single.files, [join(dir, 'single', 'BasicCompanyDataAsOneFile-2024-06-01.zip')]);
    const members = await readZip(single.files[0]!);
    assert.deepEqual(
      members.map((m) => m.name),
      ['BasicCompanyDataAsOneFile-2024-06-01.csv'],
    );
    const modified = members[0]!.modified;
    assert.deepEqual([modified.getFullYear(), modified.getMonth() + 1, modified.getDate()], [2024, 6, 1]);
  });

  test('its rows are the snapshot, each line ending in CRLF, parsing to 55 columns', async () => {
    const [member] = await readZip(single.files[0]!);
    assert.deepEqual(dataLines(member!.text), EXPECTED_LINES);
    assert.equal(single.rows, EXPECTED_LINES.length);
    const rows = parse(member!.text) as string[][];
    assert.equal(rows.length, EXPECTED_LINES.length + 1);
    for (const row of rows) assert.equal(row.length, 55);
  });

  test('part files: partN_M names, a header in each, the rows split between them in order', async () => {
    const names = parts.files.map((f) => basename(f));
    assert.deepEqual(names, [
      'BasicCompanyData-2024-06-01-part1_3.zip',
      'BasicCompanyData-2024-06-01-part2_3.zip',
      'BasicCompanyData-2024-06-01-part3_3.zip',
    ]);
    assert.deepEqual((await readdir(join(dir, 'parts'))).sort(), names);
    const lines: string[] = [];
    for (const file of parts.files) {
      const members = await readZip(file);
      assert.deepEqual(
        members.map((m) => m.name),
        [basename(file).replace(/\.zip$/, '.csv')],
      );
      const data = dataLines(members[0]!.text);
      assert.ok(data.length > EXPECTED_LINES.length / 4, `${basename(file)}: ${data.length} rows`);
      lines.push(...data);
    }
    assert.deepEqual(lines, EXPECTED_LINES);
    assert.equal(parts.rows, EXPECTED_LINES.length);
  });

  test('unzipped, the same CSVs under the same names', async () => {
    assert.deepEqual(
      bare.files.map((f) => basename(f)),
      ['BasicCompanyData-2024-06-01-part1_2.csv', 'BasicCompanyData-2024-06-01-part2_2.csv'],
    );
    const lines: string[] = [];
    for (const file of bare.files) lines.push(...dataLines(await readFile(file, 'utf8')));
    assert.deepEqual(lines, EXPECTED_LINES);
  });

  test('bytes counts what is on disk, and nothing half-written is left behind', async () => {
    for (const result of [single, parts, bare]) {
      let bytes = 0;
      for (const file of result.files) bytes += (await stat(file)).size;
      assert.equal(result.bytes, bytes);
    }
    for (const sub of ['single', 'parts', 'bare']) {
      for (const name of await readdir(join(dir, sub))) assert.doesNotMatch(name, /partial/);
    }
  });

  const invalid = [
    { name: 'a malformed date', options: { snapshotDate: '1/6/2024' }, error: /ISO date/ },
    { name: 'a day that does not exist', options: { snapshotDate: '2023-02-29' }, error: /ISO date/ },
    { name: 'a month that does not exist', options: { snapshotDate: '2024-13-01' }, error: /ISO date/ },
    { name: 'a deflate level out of range', options: { compressionLevel: 0 }, error: /compressionLevel/ },
    { name: 'no parts', options: { parts: 0 }, error: /parts/ },
    { name: 'a fraction of a company', options: { companies: 2.5 }, error: /companies/ },
  ];
  for (const { name, options, error } of invalid) {
    test(`rejects ${name}`, async () => {
      await assert.rejects(writeRegisterSnapshot({ ...OPTIONS, outDir: join(dir, 'invalid'), ...options }), error);
    });
  }
});

/** Daily bulk zips: the real names, one per publication date, and members that parse back. */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import yauzl from 'yauzl';
import { dailyBulkFileName, parseBulkFileName } from '../../src/accounts/file-names.ts';
import { writeBulkZips } from '../../src/synthetic/bulk-zip.ts';
import type { BulkZipResult } from '../../src/synthetic/bulk-zip.ts';
import { syntheticFilings } from '../../src/synthetic/filings.ts';
import type { SyntheticFiling } from '../../src/synthetic/filings.ts';
import { readBack } from './expectations.ts';

interface Member {
  name: string;
  bytes: Buffer;
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
            members.push({ name: entry.fileName, bytes: Buffer.concat(chunks), modified: entry.getLastModDate() });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

describe('writeBulkZips', () => {
  const options = { seed: 21, companies: 60, yearsPerCompany: 2 };
  let dir: string;
  let result: BulkZipResult;
  let filings: SyntheticFiling[];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bulk-zip-'));
    filings = [...syntheticFilings(options)];
    result = await writeBulkZips(syntheticFilings(options), join(dir, 'out'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('one zip per publication date, named as Companies House names them', async () => {
    const dates = [...new Set(filings.map((f) => f.published))];
    assert.deepEqual(
      result.zips.map((z) => basename(z)),
      dates.map(dailyBulkFileName),
    );
    assert.deepEqual((await readdir(join(dir, 'out'))).sort(), dates.map(dailyBulkFileName).sort());
    for (const zip of result.zips) {
      assert.match(basename(zip), /^Accounts_Bulk_Data-\d{4}-\d{2}-\d{2}\.zip$/);
      assert.equal(parseBulkFileName(zip)?.kind, 'daily');
    }
  });

  test('reports the filings and the bytes written', async () => {
    assert.equal(result.filings, filings.length);
    let bytes = 0;
    for (const zip of result.zips) bytes += (await stat(zip)).size;
    assert.equal(result.bytes, bytes);
  });

  test('every member is the generated filing, dated its publication day, and parses to its figures', async () => {
    const byName = new Map(filings.map((f) => [f.fileName, f]));
    let members = 0;
    for (const zip of result.zips) {
      const published = parseBulkFileName(zip)!.published;
      for (const member of await readZip(zip)) {
        const filing = byName.get(member.name);
        assert.ok(filing, member.name);
        assert.equal(filing.published, published);
        assert.ok(member.bytes.equals(filing.bytes));
        const modified = member.modified;
        assert.equal(
          `${modified.getFullYear()}-${String(modified.getMonth() + 1).padStart(2, '0')}-${String(modified.getDate()).padStart(2, '0')}`,
          published,
        );
        assert.deepStrictEqual(readBack({ bytes: member.bytes, fileName: member.name }), filing.expected);
        members++;
      }
    }
    assert.equal(members, filings.length);
  });

  test('writing again gives identical zips', async () => {
    const again = await writeBulkZips(syntheticFilings(options), join(dir, 'again'));
    assert.equal(again.bytes, result.bytes);
    const { readFile } = await import('node:fs/promises');
    for (const [i, zip] of result.zips.entries()) {
      assert.ok((await readFile(zip)).equals(await readFile(again.zips[i]!)), basename(zip));
    }
  });

  test('refuses filings out of publication order', async () => {
    const [a, b] = filings.filter((f, i, all) => i === 0 || f.published !== all[0]!.published);
    await assert.rejects(writeBulkZips([b!, a!], join(dir, 'unordered')), /publication order/);
  });

  test('nothing in, nothing out', async () => {
    assert.deepEqual(await writeBulkZips([], join(dir, 'empty')), { zips: [], filings: 0, bytes: 0 });
  });
});

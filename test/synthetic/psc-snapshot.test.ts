/**
 * The synthetic PSC snapshot: every line reads as a real one does (parsePscLine, no rejects), its
 * companies are the register's of that date, it is deterministic, and it holds what the ownership
 * features need to show: serial individuals, corporate chains several levels deep, a cycle,
 * overseas parents, legal persons, super-secure PSCs, statements, exemptions, ceased and replaced
 * PSCs. The files are named and zipped as Companies House's are.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import yauzl from 'yauzl';
import { parsePscLine } from '../../src/ownership/psc-line.ts';
import type { PscLine, PscRecord } from '../../src/domain/psc.ts';
import { pscSnapshotFileName, writePscSnapshot } from '../../src/synthetic/psc-files.ts';
import { PSC_REGIME_START, pscSnapshotLines } from '../../src/synthetic/psc-snapshot.ts';
import { registerSnapshot } from '../../src/synthetic/register.ts';

const OPTIONS = { seed: 7, companies: 3000, snapshotDate: '2025-06-01' };
const LINES = [...pscSnapshotLines(OPTIONS)];
const PARSED = LINES.map((line) => parsePscLine(line));
const RECORDS = PARSED.filter((p): p is Extract<PscLine, { type: 'psc' }> => p.type === 'psc').map((p) => p.record);
const REGISTER = new Map([...registerSnapshot(OPTIONS)].map((row) => [row.company_number, row]));

function current(records: readonly PscRecord[]): PscRecord[] {
  return records.filter((r) => !r.ceased);
}

/** Current controlling-company edges: company -> the companies registered as its PSCs. */
function edgesUp(records: readonly PscRecord[]): Map<string, string[]> {
  const up = new Map<string, string[]>();
  for (const r of current(records)) {
    if (r.registered_company_number === null) continue;
    up.set(r.company_number, [...(up.get(r.company_number) ?? []), r.registered_company_number]);
  }
  return up;
}

describe('the synthetic PSC snapshot, line by line', () => {
  test('every line is read as a real snapshot line is; none is rejected', () => {
    assert.ok(LINES.length > 4000, `${LINES.length} lines`);
    const rejected = PARSED.filter((p) => p.type === 'rejected');
    assert.deepEqual(rejected, []);
  });

  test('the last line, and only it, is the totals line, and its counts are the lines', () => {
    assert.deepEqual(
      PARSED.map((p, i) => (p.type === 'summary' ? i : -1)).filter((i) => i >= 0),
      [LINES.length - 1],
    );
    const summary = (PARSED.at(-1) as Extract<PscLine, { type: 'summary' }>).data;
    const statements = RECORDS.filter((r) => r.kind_class === 'statement').length;
    const exemptions = RECORDS.filter((r) => r.kind_class === 'exemption').length;
    assert.equal(summary.kind, 'totals#persons-of-significant-control-snapshot');
    assert.equal(summary.statements_count, statements);
    assert.equal(summary.exemptions_count, exemptions);
    assert.equal(summary.persons_of_significant_control_count, RECORDS.length - statements - exemptions);
    assert.match(String(summary.generated_at), /^2025-06-01T/);
  });

  test('keys are in the order Companies House writes them, and no field is empty', () => {
    for (const line of LINES.slice(0, 500)) {
      const { data } = JSON.parse(line) as { data: Record<string, unknown> };
      if (String(data.kind).startsWith('totals#')) continue;
      const keys = Object.keys(data);
      assert.deepEqual(keys, [...keys].sort(), line);
      assert.doesNotMatch(line, /:null|:""/, line);
    }
  });

  test('every company is on the synthetic register of the snapshot date, and most of them have records', () => {
    const numbers = new Set(RECORDS.map((r) => r.company_number));
    for (const number of numbers) assert.ok(REGISTER.has(number), `${number} is not on the register`);
    assert.ok(numbers.size > REGISTER.size * 0.95, `${numbers.size} of ${REGISTER.size} companies`);
    const perCompany = RECORDS.length / numbers.size;
    assert.ok(perCompany > 1.6 && perCompany < 3, `${perCompany.toFixed(2)} records a company`);
  });

  test('notified on or after 6 April 2016, after incorporation, by the snapshot date; ceased by it too', () => {
    for (const r of RECORDS) {
      if (r.kind_class === 'super_secure' || r.kind_class === 'exemption') continue;
      assert.ok(r.notified_on !== null && r.notified_on >= PSC_REGIME_START, JSON.stringify(r));
      assert.ok(r.notified_on >= REGISTER.get(r.company_number)!.incorporation_date, r.company_number);
      assert.ok(r.notified_on <= OPTIONS.snapshotDate);
      if (r.ceased_on !== null) assert.ok(r.ceased_on <= OPTIONS.snapshotDate && r.ceased_on >= r.notified_on);
    }
  });

  test('statements come after every PSC, and exemptions after every statement', () => {
    const order = {
      individual: 0,
      corporate: 0,
      legal_person: 0,
      super_secure: 0,
      other: 0,
      statement: 1,
      exemption: 2,
    };
    const ranks = RECORDS.map((r) => order[r.kind_class]);
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
    );
    assert.ok(ranks.includes(1) && ranks.includes(2));
  });

  test('individuals carry names, month and year of birth, nationality, residence and an address', () => {
    const individuals = RECORDS.filter((r) => r.kind_class === 'individual');
    assert.ok(individuals.length > 3000);
    for (const r of individuals) {
      assert.ok(r.name_elements?.forename && r.name_elements.surname && r.name, JSON.stringify(r));
      assert.ok(r.birth_year !== null && r.birth_year >= 1930 && r.birth_year <= 2000);
      assert.ok(r.birth_month !== null && r.birth_month >= 1 && r.birth_month <= 12);
      assert.ok(r.nationality && r.country_of_residence && r.person_key);
    }
    // The address is in the line as filed, and not kept by the reader.
    const line = LINES.find((l) => l.includes('"individual-person-with-significant-control"'))!;
    assert.ok((JSON.parse(line) as { data: { address: object } }).data.address);
    assert.equal('address' in individuals[0]!.data, false);
    assert.ok(new Set(individuals.map((r) => r.nationality)).size > 5);
  });

  test('natures of control are real codes, LLP codes for LLPs only', () => {
    const natures = new Set(RECORDS.flatMap((r) => r.natures_of_control));
    for (const nature of [
      'ownership-of-shares-25-to-50-percent',
      'ownership-of-shares-50-to-75-percent',
      'ownership-of-shares-75-to-100-percent',
      'voting-rights-75-to-100-percent',
      'right-to-appoint-and-remove-directors',
      'significant-influence-or-control',
      'ownership-of-shares-25-to-50-percent-as-trust',
      'right-to-share-surplus-assets-75-to-100-percent-limited-liability-partnership',
      'right-to-appoint-and-remove-members-limited-liability-partnership',
    ]) {
      assert.ok(natures.has(nature), nature);
    }
    for (const nature of natures)
      assert.match(nature, /^(ownership-of-shares|voting-rights|right-to|significant-influence)/);
    for (const r of RECORDS) {
      const llp = r.company_number.startsWith('OC');
      for (const nature of r.natures_of_control)
        assert.equal(nature.endsWith('limited-liability-partnership'), llp, nature);
    }
  });
});

describe('the synthetic PSC snapshot holds the structures ownership needs', () => {
  test('some individuals control many companies, with the same name elements and birth month and year', () => {
    const companiesOf = new Map<string, Set<string>>();
    for (const r of current(RECORDS)) {
      if (r.kind_class !== 'individual') continue;
      companiesOf.set(r.person_key!, (companiesOf.get(r.person_key!) ?? new Set()).add(r.company_number));
    }
    const serial = [...companiesOf.values()].filter((companies) => companies.size >= 10);
    assert.ok(serial.length >= 3, `${serial.length} individuals control 10 companies or more`);
    const [key] = [...companiesOf].sort((a, b) => b[1].size - a[1].size)[0]!;
    const theirs = RECORDS.filter((r) => r.person_key === key);
    assert.equal(
      new Set(theirs.map((r) => JSON.stringify([r.name, r.name_elements, r.birth_year, r.birth_month]))).size,
      1,
    );
  });

  test('corporate chains run at least four companies deep, every link on the register', () => {
    const up = edgesUp(RECORDS);
    let deepest: string[] = [];
    for (const start of up.keys()) {
      const chain = [start];
      for (let at = start; up.has(at) && chain.length < 20;) {
        at = up.get(at)![0]!;
        if (chain.includes(at)) break;
        chain.push(at);
      }
      if (chain.length > deepest.length) deepest = chain;
    }
    assert.ok(deepest.length >= 5, `deepest chain: ${deepest.join(' <- ')}`);
    for (const number of deepest) assert.ok(REGISTER.has(number), number);
  });

  test('every UK corporate PSC resolves to a company on the register; the rest are overseas', () => {
    const corporate = RECORDS.filter((r) => r.kind_class === 'corporate');
    assert.ok(corporate.length > 50);
    for (const r of corporate) {
      if (r.overseas) assert.equal(r.registered_company_number, null);
      else
        assert.ok(
          r.registered_company_number !== null && REGISTER.has(r.registered_company_number),
          JSON.stringify(r.identification),
        );
    }
    const countries = new Set(corporate.filter((r) => r.overseas).map((r) => r.identification?.country_registered));
    assert.ok(countries.size >= 4, [...countries].join(', '));
    // The UK parent is named as the register names it.
    const parent = corporate.find((r) => !r.overseas)!;
    assert.equal(parent.name!.toUpperCase(), REGISTER.get(parent.registered_company_number!)!.name.toUpperCase());
  });

  test('a cycle: A controls B and B controls A', () => {
    const up = edgesUp(RECORDS);
    const cycle = [...up].find(([a, parents]) => parents.some((b) => up.get(b)?.includes(a)));
    assert.ok(cycle, 'no company controls one of its controllers');
  });

  test('legal persons, super-secure PSCs, statements and exemptions', () => {
    const count = (cls: PscRecord['kind_class']) => RECORDS.filter((r) => r.kind_class === cls).length;
    assert.ok(count('legal_person') >= 3, 'legal persons');
    assert.ok(count('super_secure') >= 1, 'super-secure');
    assert.ok(count('exemption') >= 1, 'exemptions');
    const statements = new Set(RECORDS.filter((r) => r.kind_class === 'statement').map((r) => r.statement));
    assert.ok(statements.has('no-individual-or-entity-with-signficant-control'));
    assert.ok(statements.has('psc-details-not-confirmed'));
    assert.ok(statements.size >= 4, [...statements].join(', '));
  });

  test('ceased PSCs, and the ones that replaced them notified on the day they ceased', () => {
    const ceased = RECORDS.filter((r) => r.kind_class === 'individual' && r.ceased_on !== null);
    assert.ok(ceased.length > 100);
    const replaced = ceased.filter((old) =>
      RECORDS.some(
        (r) =>
          r.company_number === old.company_number &&
          r.kind_class === 'individual' &&
          !r.ceased &&
          r.notified_on === old.ceased_on,
      ),
    );
    assert.ok(replaced.length > 50, `${replaced.length} replaced`);
    // A statement of no PSC, withdrawn when a PSC was notified.
    assert.ok(RECORDS.some((r) => r.kind_class === 'statement' && r.ceased_on !== null));
  });
});

describe('determinism, and one story across snapshots', () => {
  const digest = (lines: Iterable<string>) => {
    const hash = createHash('sha256');
    for (const line of lines) hash.update(line).update('\n');
    return hash.digest('hex');
  };

  test('the same options give the same lines; another seed gives others', () => {
    assert.equal(digest(pscSnapshotLines(OPTIONS)), digest(LINES));
    assert.notEqual(digest(pscSnapshotLines({ ...OPTIONS, seed: 8 })), digest(LINES));
  });

  test('a year later: the same PSCs (same ids), some ceased since (new etag), some notified since', () => {
    const later = [...pscSnapshotLines({ ...OPTIONS, snapshotDate: '2026-06-01' })]
      .map((line) => parsePscLine(line))
      .filter((p): p is Extract<PscLine, { type: 'psc' }> => p.type === 'psc')
      .map((p) => p.record);
    const key = (r: PscRecord) => `${r.company_number}/${r.psc_id}`;
    const laterByKey = new Map(later.map((r) => [key(r), r]));
    let ceasedSince = 0;
    let kept = 0;
    for (const r of RECORDS) {
      const then = laterByKey.get(key(r));
      if (then === undefined) continue; // its company left the register
      kept++;
      if (r.ceased) assert.ok(then.ceased && then.ceased_on === r.ceased_on && then.content_hash === r.content_hash);
      else if (then.ceased) {
        ceasedSince++;
        assert.notEqual(then.content_hash, r.content_hash);
      } else if (then.data.identity_verification_details === undefined) assert.equal(then.content_hash, r.content_hash);
      // Verification began in the year (the roll-out of November 2025): a new etag, the same id.
      else assert.notEqual(then.content_hash, r.content_hash);
    }
    assert.ok(kept > RECORDS.length * 0.9, `${kept} of ${RECORDS.length} still listed`);
    assert.ok(ceasedSince > 20, `${ceasedSince} ceased in the year`);
    const before = new Set(RECORDS.map(key));
    assert.ok(later.filter((r) => !before.has(key(r))).length > 50, 'PSCs notified in the year');
  });
});

function readZip(path: string): Promise<{ name: string; text: string }[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const members: { name: string; text: string }[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(members));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            members.push({ name: entry.fileName, text: Buffer.concat(chunks).toString('utf8') });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

describe('writePscSnapshot', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'psc-snapshot-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('file names as Companies House publishes them', () => {
    assert.equal(pscSnapshotFileName('2025-06-01'), 'persons-with-significant-control-snapshot-2025-06-01');
    assert.equal(pscSnapshotFileName('2025-06-01', 3, 28), 'psc-snapshot-2025-06-01_3of28');
  });

  test('one zip holding one .txt of the same name: the snapshot, a line end after every line', async () => {
    const out = join(dir, 'single');
    const result = await writePscSnapshot({ ...OPTIONS, outDir: out });
    assert.deepEqual(await readdir(out), ['persons-with-significant-control-snapshot-2025-06-01.zip']);
    const members = await readZip(result.files[0]!);
    assert.deepEqual(
      members.map((m) => m.name),
      ['persons-with-significant-control-snapshot-2025-06-01.txt'],
    );
    assert.equal(members[0]!.text, `${LINES.join('\n')}\n`);
    assert.equal(result.lines, LINES.length);
  });

  test('parts: each zip names its part; together the same records; the totals line ends the last', async () => {
    const out = join(dir, 'parts');
    const result = await writePscSnapshot({ ...OPTIONS, outDir: out, parts: 3 });
    assert.deepEqual(
      (await readdir(out)).sort(),
      [1, 2, 3].map((k) => `psc-snapshot-2025-06-01_${k}of3.zip`),
    );
    const texts: string[] = [];
    for (const [k, file] of result.files.entries()) {
      const [member] = await readZip(file);
      assert.equal(member!.name, `psc-snapshot-2025-06-01_${k + 1}of3.txt`);
      texts.push(member!.text);
    }
    const lines = texts.join('').trimEnd().split('\n');
    assert.equal(lines.filter((l) => l.includes('totals#')).length, 1);
    assert.ok(lines.at(-1)!.includes('totals#'));
    assert.equal(lines.at(-1), LINES.at(-1));
    assert.deepEqual([...lines].sort(), [...LINES].sort());
  });

  test('a bad date or count is refused before anything is written', async () => {
    await assert.rejects(
      writePscSnapshot({ ...OPTIONS, snapshotDate: '2025-02-30', outDir: join(dir, 'bad') }),
      /snapshotDate/,
    );
    await assert.rejects(writePscSnapshot({ ...OPTIONS, companies: -1, outDir: join(dir, 'bad') }), /companies/);
    await assert.rejects(readdir(join(dir, 'bad')));
  });
});

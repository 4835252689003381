/**
 * What PSC snapshot files a load was given: names, dates, parts and completeness (tables).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { describePscInputs, parsePscFileName } from '../../loaders/psc-inputs.ts';

describe('PSC snapshot file names', () => {
  const cases: [string, ReturnType<typeof parsePscFileName>][] = [
    ['persons-with-significant-control-snapshot-2026-01-05.zip', { date: '2026-01-05', part: null }],
    ['persons-with-significant-control-snapshot-2026-01-05.txt', { date: '2026-01-05', part: null }],
    ['/data/psc-snapshot-2026-01-05_3of28.zip', { date: '2026-01-05', part: { index: 3, of: 28 } }],
    ['psc-snapshot-2026-01-05_28of28.txt', { date: '2026-01-05', part: { index: 28, of: 28 } }],
    ['psc-snapshot-2026-01-05_1of1.jsonl', { date: '2026-01-05', part: { index: 1, of: 1 } }],
    ['psc-snapshot-2026-01-05.zip', null],
    ['psc-snapshot-2026-01-05_1-28.zip', null],
    ['BasicCompanyDataAsOneFile-2026-01-01.zip', null],
    ['persons-with-significant-control-snapshot-2026-01-05.csv', null],
  ];
  for (const [name, want] of cases) test(name, () => assert.deepEqual(parsePscFileName(name), want));
});

describe('what the given files amount to', () => {
  const root = mkdtempSync(join(tmpdir(), 'ukcd-psc-inputs-'));
  let n = 0;
  /** A folder of empty files by these names, described as given (the folder, or each file). */
  const given = async (names: string[], asFolder = true) => {
    const dir = join(root, String(n++));
    mkdirSync(dir);
    for (const name of names) writeFileSync(join(dir, name), '');
    const inputs = await describePscInputs(asFolder ? [dir] : names.map((name) => join(dir, name)));
    return { ...inputs, files: inputs.files.map((file) => file.slice(dir.length + 1)) };
  };
  const whole = 'persons-with-significant-control-snapshot-2026-01-05.zip';
  const part = (i: number, of = 3, date = '2026-01-05') => `psc-snapshot-${date}_${i}of${of}.zip`;

  test('the one file: complete, dated', async () => {
    assert.deepEqual(await given([whole]), {
      files: [whole],
      snapshotDate: '2026-01-05',
      complete: true,
      incomplete: null,
      problems: [],
    });
  });

  test('every part, in part order (not name order: 10 after 9)', async () => {
    const names = Array.from({ length: 10 }, (_, i) => part(i + 1, 10));
    const inputs = await given(names);
    assert.deepEqual(inputs.files, names);
    assert.equal(inputs.complete, true);
  });

  test('parts missing: partial, naming them', async () => {
    const inputs = await given([part(1), part(3)], false);
    assert.deepEqual([inputs.complete, inputs.incomplete], [false, 'part(s) 2 of 3 not given']);
  });

  test('a file not named as a snapshot: no date, partial', async () => {
    const inputs = await given(['records.jsonl']);
    assert.deepEqual(
      [inputs.snapshotDate, inputs.complete, inputs.incomplete],
      [null, false, '1 file(s) not named as a PSC snapshot'],
    );
  });

  test('other files in the folder are not read', async () => {
    assert.deepEqual((await given([whole, 'notes.md', 'rejected.csv'])).files, [whole]);
  });

  const problems: [string, string[], RegExp][] = [
    ['two dates', [part(1, 2), part(2, 2, '2026-01-06')], /different snapshots: 2026-01-05, 2026-01-06/],
    ['a part twice', [part(1, 2), part(1, 2).replace('.zip', '.txt')], /part 1 is given twice/],
    ['parts that disagree on their count', [part(1, 2), part(2, 3)], /disagree on how many/],
    ['the whole file and parts', [whole, part(1)], /the whole snapshot and some of its parts/],
  ];
  for (const [name, names, want] of problems) {
    test(`refused: ${name}`, async () => assert.match((await given(names)).problems.join('; '), want));
  }

  test('a path that does not exist is a problem', async () => {
    const inputs = await describePscInputs([join(root, 'nowhere.zip')]);
    assert.match(inputs.problems[0]!, /nowhere\.zip: .*ENOENT/);
  });
});

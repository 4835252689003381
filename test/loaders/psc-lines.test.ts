/**
 * Splitting a PSC snapshot into numbered lines (psc-lines.ts) and telling from its first line
 * whether a file is a PSC snapshot at all (load-psc.ts): tables.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { snapshotStartProblem } from '../../loaders/load-psc.ts';
import { firstLine, numberedLines } from '../../loaders/psc-lines.ts';

async function lines(chunks: string[], maxBytes?: number) {
  const out = [];
  for await (const line of numberedLines(Readable.from(chunks.map((c) => Buffer.from(c))), maxBytes)) {
    out.push(line.tooLong ? [line.number, line.text, 'too long'] : [line.number, line.text]);
  }
  return out;
}

describe('numbered lines', () => {
  const cases: { name: string; chunks: string[]; maxBytes?: number; want: unknown[] }[] = [
    {
      name: 'one chunk, last line ended',
      chunks: ['a\nb\n'],
      want: [
        [1, 'a'],
        [2, 'b'],
      ],
    },
    {
      name: 'last line not ended',
      chunks: ['a\nb'],
      want: [
        [1, 'a'],
        [2, 'b'],
      ],
    },
    {
      name: 'CRLF line ends',
      chunks: ['a\r\nb\r\n'],
      want: [
        [1, 'a'],
        [2, 'b'],
      ],
    },
    {
      name: 'a line across chunks',
      chunks: ['{"a":', '1', '}\n{"b"', ':2}\n'],
      want: [
        [1, '{"a":1}'],
        [2, '{"b":2}'],
      ],
    },
    {
      name: 'CR and LF in different chunks',
      chunks: ['a\r', '\nb'],
      want: [
        [1, 'a'],
        [2, 'b'],
      ],
    },
    {
      name: 'empty lines are counted, not given',
      chunks: ['a\n\n\r\nb\n\n'],
      want: [
        [1, 'a'],
        [4, 'b'],
      ],
    },
    { name: 'nothing', chunks: [], want: [] },
    {
      name: 'a byte-order mark before the first line is dropped; one later is kept',
      chunks: ['\uFEFF{"a":1}\n\uFEFFb\n'],
      want: [
        [1, '{"a":1}'],
        [2, '\uFEFFb'],
      ],
    },
    {
      name: 'a byte-order mark in a chunk of its own is dropped all the same',
      chunks: ['\uFEFF', '{"a":1}\n'],
      want: [[1, '{"a":1}']],
    },
    {
      name: 'a line past the limit comes out cut and marked, and the next is whole',
      chunks: ['abcdefgh', 'ijkl\nmn\n'],
      maxBytes: 5,
      want: [
        [1, 'abcde', 'too long'],
        [2, 'mn'],
      ],
    },
    {
      name: 'a file with no line end past the limit',
      chunks: ['abcdefgh', 'ijkl'],
      maxBytes: 5,
      want: [[1, 'abcde', 'too long']],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => assert.deepEqual(await lines(c.chunks, c.maxBytes), c.want));
  }

  // "ë" is two bytes in UTF-8: cut between them, the line still decodes whole.
  test('a character split across chunks decodes whole', async () => {
    const bytes = Buffer.from('{"name":"Zoë"}\nx\n');
    const at = bytes.indexOf(0xc3) + 1;
    const out = [];
    for await (const line of numberedLines(Readable.from([bytes.subarray(0, at), bytes.subarray(at)]))) {
      out.push(line.text);
    }
    assert.deepEqual(out, ['{"name":"Zoë"}', 'x']);
  });

  test('the first line, skipping empty ones; none in an empty stream', async () => {
    assert.equal((await firstLine(Readable.from([Buffer.from('\n\n{"data":{}}\nrest\n')])))?.text, '{"data":{}}');
    assert.equal(await firstLine(Readable.from([])), null);
  });
});

describe('is it a PSC snapshot, from its first line', () => {
  const line = (text: string) => ({ text, tooLong: false });
  const cases: [string, { text: string; tooLong: boolean } | null, string | null][] = [
    [
      'a record',
      line('{"company_number":"09145694","data":{"kind":"individual-person-with-significant-control"}}'),
      null,
    ],
    ['the totals line', line('{"data":{"kind":"totals#persons-of-significant-control-snapshot"}}'), null],
    ['a record malformed in its details (the parser rejects it by line)', line('{"company_number":1,"data":{}}'), null],
    ['an empty file', null, 'it is empty'],
    ['a register CSV', line('CompanyName, CompanyNumber,RegAddress.CareOf'), 'its first line is not JSON'],
    ['a zip read as text', { text: 'PK\u0003\u0004', tooLong: true }, 'its first line is longer than any PSC record'],
    ['a JSON array', line('[1,2]'), 'its first line is not a JSON object'],
    ['a JSON string', line('"x"'), 'its first line is not a JSON object'],
    [
      'JSON without data',
      line('{"company_number":"09145694"}'),
      'its first line has no "data" object, as every line of a PSC snapshot has',
    ],
    [
      'data not an object',
      line('{"data":"x"}'),
      'its first line has no "data" object, as every line of a PSC snapshot has',
    ],
  ];
  for (const [name, first, want] of cases) test(name, () => assert.equal(snapshotStartProblem(first), want));
});

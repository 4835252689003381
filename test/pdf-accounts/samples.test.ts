// run-tests: alone
// (OCR of 16 real scans takes a minute of both cores; it would slow every file beside it.)
/**
 * The reader over the 16 real Companies House scans with hand-read values
 * ($SAMPLES_DIR/pdf/MANIFEST.md), held to the targets of docs/pdf-accounts.md: of the figures
 * reported `high`, at least 97% exactly right; at least 80% of the figures the documents show
 * reported at all; company number and balance sheet date right on at least 95% of files; a
 * prior-year value never reported as the current one. Then `ukcd parse FILE.pdf` on one scan.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { runParseCommand } from '../../loaders/parse-command.ts';
import type { PdfFiling } from '../../src/pdf-accounts/read-pdf-accounts.ts';
import { readPdfAccounts } from '../../src/pdf-accounts/read-pdf-accounts.ts';
import { samplesDir } from '../support/samples.ts';
import { ocrPrograms } from '../support/tesseract.ts';
import { readManifest, score } from './manifest.ts';

const programs = ocrPrograms();
const { dir, samples } = readManifest(samplesDir);

describe('scanned accounts PDFs against their hand-read values', () => {
  it('meets the accuracy targets on all 16 samples', async () => {
    assert.equal(samples.length, 16, 'MANIFEST.md lists 16 scans');
    const results: { sample: (typeof samples)[number]; reported: PdfFiling | null }[] = [];
    // Two at a time: one OCR process per core.
    let next = 0;
    await Promise.all(
      [0, 1].map(async () => {
        while (next < samples.length) {
          const sample = samples[next++]!;
          const result = await readPdfAccounts(join(dir, sample.file), { programs, name: sample.file });
          results.push({ sample, reported: result.ok ? result.filing : null });
          if (result.ok) {
            // A confidence for every figure reported, and none for a figure that is not.
            const keys = Object.entries(result.filing.current)
              .filter(([, value]) => value !== null)
              .map(([key]) => key)
              .sort();
            assert.deepEqual(Object.keys(result.filing.confidence).sort(), keys, sample.file);
            assert.equal(result.filing.source, 'pdf_ocr');
          }
        }
      }),
    );
    const s = score(results);
    const report = `\n${s.wrong.join('\n')}\n${JSON.stringify({ ...s, wrong: s.wrong.length })}`;
    assert.ok(s.high > 0, `no figure reported high${report}`);
    assert.ok(s.highRight / s.high >= 0.97, `${s.highRight} of ${s.high} high figures right${report}`);
    assert.ok(s.reportedOfShown / s.shown >= 0.8, `${s.reportedOfShown} of ${s.shown} shown figures reported${report}`);
    assert.ok(s.identityRight / s.files >= 0.95, `${s.identityRight} of ${s.files} numbers and dates right${report}`);
    assert.deepEqual(s.priorAsCurrent, [], report);
  });

  it('ukcd parse FILE.pdf prints the filing as one JSON line with source pdf_ocr', async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    err.resume();
    const file = join(dir, 'matei_07479824_2025-01-29_micro-entity.pdf');
    const code = await runParseCommand([file], out, err as unknown as NodeJS.WriteStream);
    assert.equal(code, 0);
    const lines = text.trim().split('\n');
    assert.equal(lines.length, 1);
    const filing = JSON.parse(lines[0]!) as PdfFiling;
    assert.equal(filing.source, 'pdf_ocr');
    assert.equal(filing.company_number, '07479824');
    assert.equal(filing.balance_sheet_date, '2023-12-31');
    assert.equal(filing.current.net_assets, -11535);
    assert.equal(filing.current.creditors_within_one_year, 13621);
    assert.equal(filing.confidence.net_assets, 'high');
  });

  it('a file that is no PDF is a failure naming it, not a crash', async () => {
    const result = await readPdfAccounts(join(dir, 'MANIFEST.md'), { programs });
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.failure.file, /MANIFEST\.md$/);
  });
});

/**
 * Debian's Tesseract and poppler-utils for the scanned-accounts tests (scripts/tesseract.sh
 * installs them; the tesseract path in UKCD_TEST_TESSERACT, /usr/bin/tesseract by default). A
 * missing program fails the test with the way to install it, never skips it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OcrPrograms } from '../../src/pdf-accounts/ocr-tools.ts';

export function ocrPrograms(): OcrPrograms {
  const tesseract = process.env.UKCD_TEST_TESSERACT || '/usr/bin/tesseract';
  const bin = dirname(tesseract);
  const programs = { tesseract, pdfimages: join(bin, 'pdfimages'), pdftoppm: join(bin, 'pdftoppm') };
  for (const path of [...Object.values(programs), join(bin, 'pdfinfo')])
    if (!existsSync(path))
      throw new Error(`No ${path}: run scripts/tesseract.sh (it installs Debian's tesseract-ocr and poppler-utils).`);
  return programs;
}

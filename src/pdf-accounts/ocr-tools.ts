/**
 * The programs that turn a scanned PDF into words: poppler's `pdfimages` and `pdftoppm`, and
 * Tesseract. Each runs as a child process with one OCR thread (OMP_THREAD_LIMIT=1: the threads
 * cost more CPU than they save on these pages, and a worker pool parallelises by filing).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OcrPrograms {
  tesseract: string;
  pdfimages: string;
  pdftoppm: string;
}

export const DEFAULT_PROGRAMS: OcrPrograms = { tesseract: 'tesseract', pdfimages: 'pdfimages', pdftoppm: 'pdftoppm' };

function run(program: string, args: readonly string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      program,
      args,
      { maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs, env: { ...process.env, OMP_THREAD_LIMIT: '1' } },
      (error, stdout, stderr) => {
        if (error) {
          const why =
            (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'is not installed (scripts/tesseract.sh)' : 'failed';
          reject(
            new Error(
              `${program} ${why}: ${error.message.split('\n')[0]}${stderr ? `; ${stderr.trim().split('\n').at(-1)}` : ''}`,
            ),
          );
        } else {
          resolve(stdout);
        }
      },
    );
  });
}

/** The number of images on each page (1-based index), from `pdfimages -list`. */
export async function imagesPerPage(programs: OcrPrograms, pdf: string): Promise<Map<number, number>> {
  const listing = await run(programs.pdfimages, ['-list', pdf]);
  const counts = new Map<number, number>();
  for (const line of listing.split('\n').slice(2)) {
    const page = Number(line.trim().split(/\s+/)[0]);
    if (Number.isInteger(page) && page > 0) counts.set(page, (counts.get(page) ?? 0) + 1);
  }
  return counts;
}

/** The number of pages, from the PDF's own page tree (`pdfinfo`, beside `pdfimages`). */
export async function pageCount(programs: OcrPrograms, pdf: string): Promise<number> {
  const pdfinfo = programs.pdfimages.replace(/pdfimages$/, 'pdfinfo');
  const info = await run(pdfinfo, [pdf]);
  const match = /^Pages:\s+(\d+)/m.exec(info);
  if (!match) throw new Error(`pdfinfo gives no page count for ${pdf}`);
  return Number(match[1]);
}

/** Runs `work` in a fresh scratch directory, removed afterwards whatever happens. */
export async function withScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ukcd-pdf-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Low-resolution grey renders of pages `first`..`last`, or only their top `band` (a fraction of
 * the height), as files in `dir`; returns their paths in page order.
 */
export async function renderLow(
  programs: OcrPrograms,
  pdf: string,
  dir: string,
  options: { first: number; last: number; ppi: number; band?: number; prefix: string },
): Promise<string[]> {
  const args = ['-gray', '-r', String(options.ppi), '-f', String(options.first), '-l', String(options.last)];
  // A4 is 11.7 inches high; the crop is in pixels of the render.
  if (options.band !== undefined)
    args.push('-x', '0', '-y', '0', '-W', '2000', '-H', String(Math.round(11.7 * options.ppi * options.band)));
  await run(programs.pdftoppm, [...args, pdf, join(dir, options.prefix)]);
  const files = (await readdir(dir)).filter((name) => name.startsWith(`${options.prefix}-`)).sort();
  return files.map((name) => join(dir, name));
}

/** Plain text of several images in one Tesseract run, one string per image. */
export async function ocrTexts(
  programs: OcrPrograms,
  images: readonly string[],
  dir: string,
  psm: number,
): Promise<string[]> {
  if (images.length === 0) return [];
  const list = join(dir, `list-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(list, images.join('\n') + '\n');
  const text = await run(programs.tesseract, [list, 'stdout', '--psm', String(psm), '-l', 'eng'], 600_000);
  const pages = text.split('\f');
  return images.map((_, i) => pages[i] ?? '');
}

/**
 * Page `page` at its scan's own resolution: the page's one image when it has exactly one (the
 * Companies House scans), otherwise a 300 ppi grey render. Returns the image's path.
 */
export async function pageImage(
  programs: OcrPrograms,
  pdf: string,
  dir: string,
  page: number,
  imageCount: number,
): Promise<string> {
  const prefix = join(dir, `full-${page}`);
  if (imageCount === 1) {
    await run(programs.pdfimages, ['-tiff', '-f', String(page), '-l', String(page), pdf, prefix]);
  } else {
    await run(programs.pdftoppm, ['-gray', '-r', '300', '-f', String(page), '-l', String(page), pdf, prefix]);
  }
  const name = (await readdir(dir)).find((file) => file.startsWith(`full-${page}-`));
  if (!name) throw new Error(`page ${page} gave no image`);
  return join(dir, name);
}

/**
 * Tesseract's TSV (words with boxes) of one image: `psm` 6 reads it as one uniform block of
 * text, 3 with Tesseract's own page layout.
 */
export async function ocrTsv(programs: OcrPrograms, image: string, psm: 3 | 6 = 6): Promise<string> {
  return run(programs.tesseract, [image, 'stdout', '--psm', String(psm), '-l', 'eng', 'tsv']);
}

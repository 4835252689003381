/**
 * `ukcd parse PATH...`: parse every filing under the paths (files, folders, bulk zips) and print
 * one JSON line per filing on stdout: the parsed filing, or `{file, zip, error}`. A `.pdf` path
 * is a scanned accounts PDF, read by OCR (src/pdf-accounts/): its line has `source: "pdf_ocr"`
 * and a `confidence` per figure. Progress and a summary go to stderr. Exits 1 when any filing
 * could not be parsed.
 */
import { parseFiling } from '../src/accounts/parse-filing.ts';
import { readPdfAccounts } from '../src/pdf-accounts/read-pdf-accounts.ts';
import { formatDuration, startProgress } from '../src/progress/progress.ts';
import { filingSources } from './filing-sources.ts';

interface ParseSummary {
  filings: number;
  parsed: number;
  failed: number;
  failuresByCode: Record<string, number>;
  seconds: number;
}

export async function runParseCommand(
  paths: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WriteStream = process.stderr,
): Promise<number> {
  const option = paths.find((path) => path.startsWith('-'));
  if (paths.length === 0 || option !== undefined) {
    if (option !== undefined) err.write(`ukcd parse has no option "${option}"\n`);
    err.write('usage: ukcd parse PATH... (files, folders or accounts bulk zips)\n');
    return 2;
  }
  const progress = startProgress({ label: 'parse', unit: 'filings', stream: err });
  const summary: ParseSummary = { filings: 0, parsed: 0, failed: 0, failuresByCode: {}, seconds: 0 };
  const fail = (line: object, code: string) => {
    summary.failed++;
    summary.failuresByCode[code] = (summary.failuresByCode[code] ?? 0) + 1;
    out.write(`${JSON.stringify(line)}\n`);
  };

  const pdfs = paths.filter((path) => /\.pdf$/i.test(path));
  progress.expect(pdfs.length);
  for (const pdf of pdfs) {
    summary.filings++;
    const result = await readPdfAccounts(pdf);
    if (result.ok) {
      summary.parsed++;
      out.write(`${JSON.stringify(result.filing)}\n`);
    } else {
      fail({ ...result.failure, zip: null }, result.failure.error.code);
    }
    progress.advance();
  }

  const sources = filingSources(
    paths.filter((path) => !pdfs.includes(path)),
    {
      onProblem: (problem) => {
        summary.filings++;
        fail(problem, problem.error.code);
        progress.advance();
      },
      onExpected: (count) => progress.expect(count),
    },
  );
  for await (const source of sources) {
    summary.filings++;
    const result = parseFiling(source.bytes, source.name);
    if (result.ok) {
      summary.parsed++;
      out.write(`${JSON.stringify(source.zip ? { ...result.filing, zip: source.zip } : result.filing)}\n`);
    } else {
      fail({ ...result.failure, zip: source.zip }, result.failure.error.code);
    }
    progress.advance();
  }
  progress.stop();
  summary.seconds = progress.elapsedSeconds;

  const rate = summary.filings / Math.max(summary.seconds, 1e-3);
  const codes = Object.entries(summary.failuresByCode)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  err.write(
    `parsed ${summary.parsed} of ${summary.filings} filings in ${formatDuration(summary.seconds)} (${rate.toFixed(0)}/s)` +
      (summary.failed > 0 ? `; ${summary.failed} failed: ${codes}` : '') +
      '\n',
  );
  return summary.failed > 0 ? 1 : 0;
}

/**
 * `ukcd generate accounts|register|psc --out DIR …`: synthetic accounts bulk zips, register
 * snapshots and PSC snapshots in the real Companies House formats, for tests, the sample dataset
 * and benchmarks.
 */
import { parseArgs } from 'node:util';
import { isCalendarDate } from '../src/domain/calendar-date.ts';

export async function runGenerateCommand(args: readonly string[]): Promise<number> {
  const [what, ...rest] = args;
  if (what === 'register') return generateRegister(rest);
  if (what === 'psc') return generatePsc(rest);
  if (what !== 'accounts') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const { values } = parseArgs({
    args: [...rest],
    options: {
      out: { type: 'string' },
      companies: { type: 'string', default: '1000' },
      years: { type: 'string', default: '3' },
      seed: { type: 'string', default: '1' },
      resume: { type: 'boolean' },
      from: { type: 'string' },
      until: { type: 'string' },
    },
  });
  for (const option of ['from', 'until'] as const) {
    const value = values[option];
    if (value !== undefined && !isCalendarDate(value)) {
      process.stderr.write(`--${option} must be a date YYYY-MM-DD, got "${value}"\n`);
      return 2;
    }
  }
  if (!values.out) {
    process.stderr.write('--out DIR is required\n');
    return 2;
  }
  const companies = Number(values.companies);
  const years = Number(values.years);
  const seed = Number(values.seed);
  for (const [name, value] of Object.entries({ companies, years, seed })) {
    if (!Number.isInteger(value) || value < 0) {
      process.stderr.write(`--${name} must be a whole number, got "${values[name as keyof typeof values]}"\n`);
      return 2;
    }
  }
  const { syntheticFilings } = await import('../src/synthetic/filings.ts');
  const { writeBulkZips } = await import('../src/synthetic/bulk-zip.ts');
  // A run cut off part-way goes on after the last whole zip it wrote (the same arguments give the
  // same stream, so the zips after it come out as a whole run would have written them).
  // --from and --until (exclusive) cut the run by publication date, so that parts of one corpus
  // can be written side by side.
  const resumeFrom = values.resume ? await dayAfterLastZip(values.out, values.from, values.until) : null;
  const publishedFrom = [resumeFrom, values.from]
    .filter((d): d is string => !!d)
    .sort()
    .at(-1);
  if (resumeFrom) process.stderr.write(`resuming: filings published from ${publishedFrom}\n`);
  const started = Date.now();
  const result = await writeBulkZips(
    syntheticFilings({
      seed,
      companies,
      yearsPerCompany: years,
      ...(publishedFrom ? { publishedFrom } : {}),
      ...(values.until ? { publishedBefore: values.until } : {}),
    }),
    values.out,
  );
  const seconds = (Date.now() - started) / 1000;
  process.stderr.write(
    `wrote ${result.filings} filings (${(result.bytes / 1e6).toFixed(1)} MB) in ${result.zips.length} bulk zips to ${values.out} in ${seconds.toFixed(1)}s\n`,
  );
  return 0;
}

/**
 * The day after the newest whole daily zip in `dir` within [from, until) (a `.partial` one there
 * is dropped), if any.
 */
async function dayAfterLastZip(dir: string, from = '0000-00-00', until = '9999-99-99'): Promise<string | null> {
  const { readdir, rm } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { parseBulkFileName } = await import('../src/accounts/file-names.ts');
  const names = await readdir(dir).catch(() => [] as string[]);
  const inRange = (day: string | undefined): day is string => !!day && day >= from && day < until;
  for (const name of names) {
    if (name.endsWith('.partial') && inRange(parseBulkFileName(name.slice(0, -'.partial'.length))?.published))
      await rm(join(dir, name), { force: true });
  }
  const days = names.map((name) => parseBulkFileName(name)?.published).filter(inRange);
  if (days.length === 0) return null;
  const last = days.sort().at(-1)!;
  return new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

const USAGE = `usage:
  ukcd generate accounts --out DIR [--companies N] [--years N] [--seed N] [--resume] [--from D] [--until D]
  ukcd generate register --out DIR --date YYYY-MM-DD [--companies N] [--parts N] [--seed N]
  ukcd generate psc --out DIR --snapshot-date YYYY-MM-DD [--companies N] [--parts N] [--seed N]`;

async function generateRegister(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      out: { type: 'string' },
      date: { type: 'string' },
      companies: { type: 'string', default: '1000' },
      parts: { type: 'string', default: '1' },
      seed: { type: 'string', default: '1' },
    },
  });
  if (!values.out || !values.date || !isCalendarDate(values.date)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const numbers = { companies: Number(values.companies), parts: Number(values.parts), seed: Number(values.seed) };
  for (const [name, value] of Object.entries(numbers)) {
    if (!Number.isInteger(value) || value < (name === 'parts' ? 1 : 0)) {
      process.stderr.write(`--${name} must be a whole number, got "${values[name as keyof typeof values]}"\n`);
      return 2;
    }
  }
  const { writeRegisterSnapshot } = await import('../src/synthetic/register-files.ts');
  const started = Date.now();
  const result = await writeRegisterSnapshot({
    seed: numbers.seed,
    companies: numbers.companies,
    snapshotDate: values.date,
    outDir: values.out,
    ...(numbers.parts > 1 ? { parts: numbers.parts } : {}),
  });
  process.stderr.write(
    `wrote ${result.rows} register rows (${(result.bytes / 1e6).toFixed(1)} MB) in ${result.files.length} file(s) to ${values.out} in ${((Date.now() - started) / 1000).toFixed(1)}s\n`,
  );
  return 0;
}

/** A PSC snapshot of the same companies as `generate register` with the same seed and date. */
async function generatePsc(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      out: { type: 'string' },
      'snapshot-date': { type: 'string' },
      companies: { type: 'string', default: '1000' },
      parts: { type: 'string', default: '1' },
      seed: { type: 'string', default: '1' },
    },
  });
  const date = values['snapshot-date'];
  if (!values.out || !date || !isCalendarDate(date)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const numbers = { companies: Number(values.companies), parts: Number(values.parts), seed: Number(values.seed) };
  for (const [name, value] of Object.entries(numbers)) {
    if (!Number.isInteger(value) || value < (name === 'parts' ? 1 : 0) || (name === 'parts' && value > 99)) {
      process.stderr.write(`--${name} must be a whole number, got "${values[name as keyof typeof values]}"\n`);
      return 2;
    }
  }
  const { writePscSnapshot } = await import('../src/synthetic/psc-files.ts');
  const started = Date.now();
  const result = await writePscSnapshot({
    seed: numbers.seed,
    companies: numbers.companies,
    snapshotDate: date,
    outDir: values.out,
    parts: numbers.parts,
  });
  const seconds = (Date.now() - started) / 1000;
  process.stderr.write(
    `wrote ${result.lines} PSC snapshot lines (${(result.bytes / 1e6).toFixed(1)} MB) in ${result.files.length} file(s) to ${values.out} in ${seconds.toFixed(1)}s (${Math.round(result.lines / seconds)} lines/s)\n`,
  );
  return 0;
}

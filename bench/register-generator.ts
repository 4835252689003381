/**
 * bench/register-generator: how fast the synthetic register snapshot is generated and written,
 * and what that means for the full register (about 5.6 million rows).
 *
 *   npx tsx bench/register-generator.ts                        # 500,000 companies: generate, then write zipped
 *   npx tsx bench/register-generator.ts --companies 7000000    # the full-size register: 5.6M rows on 2024-06-01
 *   npx tsx bench/register-generator.ts --parts 7 --keep DIR   # seven part files, kept in DIR
 *   npx tsx bench/register-generator.ts --level 4              # faster deflate, bigger zips
 *
 * Each stage is timed by wall clock and by this process's CPU time (deflate runs on the thread
 * pool, so the CPU time of writing is what one core would need). A warm-up round comes first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeRegisterSnapshot } from '../src/synthetic/register-files.ts';
import { formatRegisterCsvLine, registerSnapshot } from '../src/synthetic/register.ts';

const FULL_REGISTER_ROWS = 5_600_000;

interface Timing {
  seconds: number;
  cpuSeconds: number;
}

async function timed<T>(run: () => Promise<T> | T): Promise<T & Timing> {
  const wall = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(cpu);
  return {
    ...result,
    seconds: Number(process.hrtime.bigint() - wall) / 1e9,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

function generate(seed: number, companies: number, snapshotDate: string): { rows: number; bytes: number } {
  let rows = 0;
  let bytes = 0;
  for (const record of registerSnapshot({ seed, companies, snapshotDate })) {
    bytes += formatRegisterCsvLine(record).length + 2;
    rows++;
  }
  return { rows, bytes };
}

function rate(rows: number, seconds: number): string {
  return `${Math.round(rows / seconds).toLocaleString('en-GB')} rows/s`;
}

function fullSize(rows: number, seconds: number): string {
  return `${((FULL_REGISTER_ROWS / rows) * seconds).toFixed(0)} s`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      companies: { type: 'string', default: '500000' },
      seed: { type: 'string', default: '20260101' },
      date: { type: 'string', default: '2024-06-01' },
      parts: { type: 'string', default: '1' },
      level: { type: 'string', default: '6' },
      keep: { type: 'string' },
      'no-write': { type: 'boolean', default: false },
    },
  });
  const companies = Number(values.companies);
  const seed = Number(values.seed);
  const snapshotDate = values.date;
  const lines: string[] = [];

  generate(seed + 1, Math.min(20_000, companies), snapshotDate);
  const gen = await timed(() => generate(seed, companies, snapshotDate));
  lines.push(
    `generated ${gen.rows.toLocaleString('en-GB')} rows of ${companies.toLocaleString('en-GB')} companies on ${snapshotDate} ` +
      `(${(gen.bytes / 1e6).toFixed(0)} MB of CSV, ${(gen.bytes / gen.rows).toFixed(0)} bytes a row) in ${gen.seconds.toFixed(1)} s`,
    `  ${rate(gen.rows, gen.seconds)} wall clock, ${rate(gen.rows, gen.cpuSeconds)} of CPU; ` +
      `the full register (${FULL_REGISTER_ROWS.toLocaleString('en-GB')} rows) in about ${fullSize(gen.rows, gen.cpuSeconds)} of CPU`,
  );

  if (!values['no-write']) {
    const dir = values.keep ?? (await mkdtemp(join(tmpdir(), 'register-bench-')));
    try {
      const parts = Number(values.parts);
      const compressionLevel = Number(values.level);
      const written = await timed(() =>
        writeRegisterSnapshot({ seed, companies, snapshotDate, outDir: dir, parts, compressionLevel }),
      );
      lines.push(
        `wrote ${written.files.length} zip(s) at deflate level ${compressionLevel}, ${(written.bytes / 1e6).toFixed(0)} MB, in ${written.seconds.toFixed(1)} s ` +
          `(${written.cpuSeconds.toFixed(1)} s of CPU)`,
        `  ${rate(written.rows, written.seconds)} wall clock, ${rate(written.rows, written.cpuSeconds)} of CPU; ` +
          `the full register zipped in about ${fullSize(written.rows, written.seconds)} here, ` +
          `${fullSize(written.rows, written.cpuSeconds)} on one core`,
      );
    } finally {
      if (values.keep === undefined) await rm(dir, { recursive: true, force: true });
    }
  }
  lines.push(`  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; node ${process.version}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();

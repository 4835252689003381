/**
 * bench/parse: accounts parser throughput per core and peak memory, reading filings from bulk
 * zips exactly as the loader will (filingSources -> parseFiling), on one thread.
 *
 *   npm run bench:parse                       # real samples + generated corpora of 2,000 and 20,000 filings
 *   npm run bench:parse -- --sizes 5000,50000 # other corpus sizes
 *   npm run bench:parse -- --runs 5           # more runs per corpus (median and range are reported)
 *
 * Each measurement runs in its own process so that its peak RSS is its own; memory that stays
 * flat from the small corpus to the large one is the point. Generated corpora are cached under
 * bench/results/.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import yazl from 'yazl';
import { filingSources } from '../loaders/filing-sources.ts';
import { parseFiling } from '../src/accounts/parse-filing.ts';
import { limit } from './limit.ts';

const root = resolve(import.meta.dirname, '..');
const resultsDir = join(root, 'bench', 'results');

interface Measurement {
  corpus: string;
  filings: number;
  failed: number;
  megabytes: number;
  seconds: number;
  parseSeconds: number;
  filingsPerSecond: number;
  parseOnlyFilingsPerSecond: number;
  megabytesPerSecond: number;
  medianKilobytes: number;
  peakRssMegabytes: number;
}

/** Child mode: measure one corpus and print the result as JSON. */
async function measure(corpus: string, label: string, repeat: number): Promise<Measurement> {
  const sizes: number[] = [];
  let failed = 0;
  let bytes = 0;
  let parseNs = 0n;
  const started = process.hrtime.bigint();
  for (let round = 0; round < repeat; round++) {
    for await (const source of filingSources([corpus], { onProblem: () => failed++ })) {
      const t = process.hrtime.bigint();
      const result = parseFiling(source.bytes, source.name);
      parseNs += process.hrtime.bigint() - t;
      if (!result.ok) failed++;
      bytes += source.bytes.length;
      sizes.push(source.bytes.length);
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const parseSeconds = Number(parseNs) / 1e9;
  sizes.sort((a, b) => a - b);
  return {
    corpus: label,
    filings: sizes.length,
    failed,
    megabytes: bytes / 1e6,
    seconds,
    parseSeconds,
    filingsPerSecond: sizes.length / seconds,
    parseOnlyFilingsPerSecond: sizes.length / parseSeconds,
    megabytesPerSecond: bytes / 1e6 / seconds,
    medianKilobytes: (sizes[Math.floor(sizes.length / 2)] ?? 0) / 1024,
    peakRssMegabytes: process.resourceUsage().maxRSS / 1024,
  };
}

async function zipSamples(target: string): Promise<void> {
  const samples = join(root, '..', 'shared', 'samples', 'accounts');
  const zip = new yazl.ZipFile();
  for (const name of readdirSync(samples)) zip.addFile(join(samples, name), name);
  zip.end();
  await new Promise<void>((done, fail) =>
    zip.outputStream.pipe(createWriteStream(target)).on('close', done).on('error', fail),
  );
}

async function ensureGenerated(filings: number): Promise<string> {
  const dir = join(resultsDir, `corpus-${filings}`);
  if (existsSync(`${dir}.complete`)) return dir;
  const { syntheticFilings } = await import('../src/synthetic/filings.ts');
  const { writeBulkZips } = await import('../src/synthetic/bulk-zip.ts');
  mkdirSync(dir, { recursive: true });
  // Companies file several years each; pick the company count that gives about `filings` filings.
  const years = 4;
  const source = syntheticFilings({ seed: 20261121, companies: Math.ceil(filings / years), yearsPerCompany: years });
  await writeBulkZips(limit(source, filings), dir);
  createWriteStream(`${dir}.complete`).end();
  return dir;
}

function runChild(corpus: string, label: string, repeat = 1): Measurement {
  const args = [
    '--import',
    'tsx',
    import.meta.filename,
    '--child',
    corpus,
    '--label',
    label,
    '--repeat',
    String(repeat),
  ];
  const child = spawnSync(process.execPath, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`measurement of ${label} failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as Measurement;
}

interface Summary extends Measurement {
  runs: number;
  minFilingsPerSecond: number;
  maxFilingsPerSecond: number;
}

/** Run a measurement several times: this machine's speed varies from run to run, so report the median and the range. */
function runRepeatedly(corpus: string, label: string, runs: number, repeat = 1): Summary {
  const results = Array.from({ length: runs }, () => runChild(corpus, label, repeat)).sort(
    (a, b) => a.filingsPerSecond - b.filingsPerSecond,
  );
  const median = results[Math.floor(results.length / 2)]!;
  return {
    ...median,
    runs,
    minFilingsPerSecond: results[0]!.filingsPerSecond,
    maxFilingsPerSecond: results.at(-1)!.filingsPerSecond,
    peakRssMegabytes: Math.max(...results.map((r) => r.peakRssMegabytes)),
  };
}

function table(rows: Summary[]): string {
  const header =
    '| corpus | filings | failed | median KB | MB | filings/s, unzip+parse (median, range of runs) | filings/s, parse only | MB/s | peak RSS MB |\n|---|---|---|---|---|---|---|---|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.corpus} | ${r.filings} | ${r.failed} | ${r.medianKilobytes.toFixed(1)} | ${r.megabytes.toFixed(1)} | **${r.filingsPerSecond.toFixed(0)}** (${r.minFilingsPerSecond.toFixed(0)}–${r.maxFilingsPerSecond.toFixed(0)}, ${r.runs} runs) | ${r.parseOnlyFilingsPerSecond.toFixed(0)} | ${r.megabytesPerSecond.toFixed(1)} | ${r.peakRssMegabytes.toFixed(0)} |`,
  );
  return [header, ...lines].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      label: { type: 'string' },
      sizes: { type: 'string', default: '2000,20000' },
      repeat: { type: 'string', default: '1' },
      runs: { type: 'string', default: '3' },
    },
  });
  if (values.child) {
    process.stdout.write(
      JSON.stringify(await measure(values.child, values.label ?? values.child, Number(values.repeat))),
    );
    return;
  }
  mkdirSync(resultsDir, { recursive: true });
  const samplesZip = join(resultsDir, 'Accounts_Bulk_Data-samples.zip');
  if (!existsSync(samplesZip)) await zipSamples(samplesZip);

  const runs = Number(values.runs);
  const rows: Summary[] = [];
  // The 52 real samples are too few to time alone, so they are read ten times over in one process.
  rows.push(runRepeatedly(samplesZip, 'real samples ×10 (52 files, 16 of them over 300 KB)', runs, 10));
  for (const size of values.sizes.split(',').map(Number)) {
    const dir = await ensureGenerated(size);
    const megabytes = readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0) / 1e6;
    process.stderr.write(`generated corpus of ${size} filings: ${megabytes.toFixed(1)} MB zipped\n`);
    rows.push(runRepeatedly(dir, `generated (${size} asked)`, runs));
  }
  process.stdout.write(`${table(rows)}\n\nnode ${process.version}, ${process.platform} ${process.arch}, one thread\n`);
}

await main();

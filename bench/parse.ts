/**
 * bench/parse: accounts parser throughput per core against the floor — inflating the same bulk
 * zips and finding the inline XBRL tags in their bytes with `Buffer.indexOf` — reading filings
 * exactly as the loader does (filingSources -> parseFiling), on one thread.
 *
 *   npm run bench:parse                       # real samples, generated corpora of 2,000 and 20,000, the size mix
 *   npm run bench:parse -- --sizes 5000,50000 # other generated corpus sizes
 *   npm run bench:parse -- --runs 5           # more runs per corpus (medians are reported)
 *   npm run bench:parse -- --mix 0            # without the size-mix corpus
 *   npm run bench:parse -- --fingerprint      # prove the skimmer gives the same results on every corpus
 *
 * Each measurement runs in its own process so that its peak RSS is its own. The machine is shared,
 * so each run measures the inflate-only stage, the floor and the parser one after the other on the
 * same corpus, and the table reports medians over the runs. Generated corpora are cached under
 * bench/results/; the size-mix corpus (bench/size-mix-corpus.ts) is drawn from the generated
 * corpus of `--mix` filings and the real samples.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import yazl from 'yazl';
import { limit } from './limit.ts';
import type { Stage, StageMeasurement } from './parse-stages.ts';
import { measureStage } from './parse-stages.ts';
import { fingerprintCorpus } from './parse-fingerprint.ts';
import { writeSizeMixCorpus } from './size-mix-corpus.ts';

const root = resolve(import.meta.dirname, '..');
const resultsDir = join(root, 'bench', 'results');
// As the tests find them (test/support/samples.ts): SAMPLES_DIR, or ../shared/samples beside the checkout.
const samplesDir = join(process.env.SAMPLES_DIR ?? join(root, '..', 'shared', 'samples'), 'accounts');

async function zipSamples(target: string): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const name of readdirSync(samplesDir)) zip.addFile(join(samplesDir, name), name);
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
  writeFileSync(`${dir}.complete`, '');
  return dir;
}

async function ensureSizeMix(poolFilings: number, count: number): Promise<string> {
  const dir = join(resultsDir, `size-mix-${count}-from-${poolFilings}`);
  if (existsSync(`${dir}.complete`)) return dir;
  await writeSizeMixCorpus(await ensureGenerated(poolFilings), samplesDir, dir, count);
  writeFileSync(`${dir}.complete`, '');
  return dir;
}

function runChild(stage: Stage, corpus: string, label: string, repeat: number): StageMeasurement {
  const args = ['--import', 'tsx', import.meta.filename, '--child', stage, '--corpus', corpus, '--label', label];
  const child = spawnSync(process.execPath, [...args, '--repeat', String(repeat)], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`measurement of ${stage} on ${label} failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as StageMeasurement;
}

interface CorpusSummary {
  label: string;
  runs: number;
  inflate: StageMeasurement;
  floor: StageMeasurement;
  parse: StageMeasurement;
  parseFull: StageMeasurement;
  parseRange: [number, number];
  floorRange: [number, number];
}

function medianBy(results: StageMeasurement[], key: (m: StageMeasurement) => number): StageMeasurement {
  return [...results].sort((a, b) => key(a) - key(b))[Math.floor(results.length / 2)]!;
}

/** Inflate, floor and parse in turn, `runs` times: the machine's speed drifts, so alternate and take medians. */
function measureCorpus(corpus: string, label: string, runs: number, repeat = 1): CorpusSummary {
  const all: Record<Stage, StageMeasurement[]> = { inflate: [], floor: [], parse: [], 'parse-full': [] };
  for (let run = 0; run < runs; run++) {
    for (const stage of ['inflate', 'floor', 'parse', 'parse-full'] as const) {
      all[stage].push(runChild(stage, corpus, label, repeat));
    }
  }
  const rate = (m: StageMeasurement) => m.megabytesPerSecond;
  const range = (list: StageMeasurement[]): [number, number] => [
    Math.min(...list.map(rate)),
    Math.max(...list.map(rate)),
  ];
  return {
    label,
    runs,
    inflate: medianBy(all.inflate, rate),
    floor: medianBy(all.floor, rate),
    parse: medianBy(all.parse, rate),
    parseFull: medianBy(all['parse-full'], rate),
    parseRange: range(all.parse),
    floorRange: range(all.floor),
  };
}

function table(rows: CorpusSummary[]): string {
  const perCpu = (m: StageMeasurement) => m.megabytes / m.cpuSeconds;
  const header =
    '| corpus | filings | failed | median KB | p90 KB | MB | inflate only MB/s | floor MB/s (range) | parser MB/s (range) | parser ÷ floor | parser filings/s | parse-only filings/s | before: MB/s, ÷ floor, filings/s | per CPU-second: floor, parser, before MB | peak RSS MB |\n' +
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|';
  const lines = rows.map((r) => {
    const p = r.parse;
    const full = r.parseFull;
    const cells = [
      r.label,
      p.filings,
      p.failed,
      p.medianKilobytes.toFixed(1),
      p.p90Kilobytes.toFixed(1),
      p.megabytes.toFixed(1),
      r.inflate.megabytesPerSecond.toFixed(1),
      `${r.floor.megabytesPerSecond.toFixed(1)} (${r.floorRange[0].toFixed(0)}–${r.floorRange[1].toFixed(0)})`,
      `**${p.megabytesPerSecond.toFixed(1)}** (${r.parseRange[0].toFixed(0)}–${r.parseRange[1].toFixed(0)})`,
      `**${(p.megabytesPerSecond / r.floor.megabytesPerSecond).toFixed(2)}**`,
      p.filingsPerSecond.toFixed(0),
      (p.filings / p.innerSeconds).toFixed(0),
      `${full.megabytesPerSecond.toFixed(1)}, ${(full.megabytesPerSecond / r.floor.megabytesPerSecond).toFixed(2)}, ${full.filingsPerSecond.toFixed(0)}`,
      `${perCpu(r.floor).toFixed(0)}, ${perCpu(p).toFixed(0)} (÷ ${(perCpu(p) / perCpu(r.floor)).toFixed(2)}), ${perCpu(full).toFixed(0)} (÷ ${(perCpu(full) / perCpu(r.floor)).toFixed(2)})`,
      p.peakRssMegabytes.toFixed(0),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [header, ...lines].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      corpus: { type: 'string' },
      label: { type: 'string' },
      sizes: { type: 'string', default: '2000,20000' },
      mix: { type: 'string', default: '10000' },
      repeat: { type: 'string', default: '1' },
      runs: { type: 'string', default: '3' },
      fingerprint: { type: 'boolean', default: false },
    },
  });
  if (values.child) {
    const corpus = values.corpus!;
    const measured = await measureStage(values.child as Stage, corpus, values.label ?? corpus, Number(values.repeat));
    process.stdout.write(JSON.stringify(measured));
    return;
  }
  mkdirSync(resultsDir, { recursive: true });
  const samplesZip = join(resultsDir, 'Accounts_Bulk_Data-samples.zip');
  if (!existsSync(samplesZip)) await zipSamples(samplesZip);

  const runs = Number(values.runs);
  const corpora: { dir: string; label: string; repeat: number }[] = [
    // The 52 real samples are too few to time alone, so they are read ten times over in one process.
    { dir: samplesZip, label: 'real samples ×10 (52 files, 16 of them over 300 KB)', repeat: 10 },
  ];
  for (const size of values.sizes.split(',').filter(Boolean).map(Number)) {
    corpora.push({ dir: await ensureGenerated(size), label: `generated (${size} asked)`, repeat: 1 });
  }
  const mix = Number(values.mix);
  if (mix > 0) {
    corpora.push({ dir: await ensureSizeMix(mix, 10_000), label: `size mix (10000 drawn)`, repeat: 1 });
  }
  if (values.fingerprint) {
    for (const c of corpora) {
      const f = await fingerprintCorpus(c.dir, c.label);
      const verdict = f.differingCount === 0 ? 'identical' : `${f.differingCount} DIFFER: ${f.differing.join(', ')}`;
      process.stdout.write(
        `${f.corpus}: ${f.filings} filings\n  whole document: ${f.full}\n  skimmed:        ${f.skim}\n  ${verdict}\n`,
      );
    }
    return;
  }
  const rows = corpora.map((c) => {
    process.stderr.write(`measuring ${c.label}\n`);
    return measureCorpus(c.dir, c.label, runs, c.repeat);
  });
  process.stdout.write(`${table(rows)}\n\nnode ${process.version}, ${process.platform} ${process.arch}, one thread\n`);
}

await main();

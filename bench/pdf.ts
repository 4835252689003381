/**
 * bench/pdf: what reading one scanned accounts PDF costs, on the real scans of
 * $SAMPLES_DIR/pdf (MANIFEST.md), and how the two Tesseract builds compare on them.
 *
 *   npm run bench:pdf                       # the reader, 3 runs of every scan
 *   npm run bench:pdf -- --runs 5 --engines # and the engines compared on each balance sheet page
 *
 * **The reader.** Each run is `ukcd parse FILE.pdf` in its own process under GNU time: CPU is
 * the user and system time of the process and every child it waited for (poppler's tools and
 * Tesseract), so all the work of a filing. A worker reading filings one after another pays the
 * start of node and its modules once, not per filing: the same command on an empty `.pdf`
 * (which fails at once) measures that start, and `net` is a run less it. Memory is the peak of
 * the process tree's summed resident memory, read from /proc every 50 ms, and the largest single
 * process's peak (GNU time's maximum resident set).
 *
 * **The engines** (`--engines`): the balance sheet page of each scan (the page the reader chose)
 * is taken out at its scan resolution (`pdfimages`) and read whole, one page layout
 * (`--psm 6`), by Debian's `tesseract` (one thread, as the reader runs it) and by tesseract.js
 * with its published English data (`@tesseract.js-data/eng`, the same fast LSTM model family),
 * in this process. Each is scored by the hand-read balance-sheet values whose printed digits it
 * finds exactly, and timed in CPU-seconds.
 *
 * Written to bench/results/pdf.json.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readManifest } from '../test/pdf-accounts/manifest.ts';
import type { Sample } from '../test/pdf-accounts/manifest.ts';

const root = resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    samples: { type: 'string', default: process.env.SAMPLES_DIR ?? join(root, '../shared/samples') },
    engines: { type: 'boolean', default: false },
    /** Only the scans whose file name holds this. */
    only: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs must be a whole number of 1 or more');

interface Run {
  wall_s: number;
  cpu_s: number;
  /** The largest single process's peak resident memory (GNU time's %M), MB. */
  max_process_mb: number;
  /** The peak of the whole process tree's resident memory, summed, MB. */
  tree_peak_mb: number;
  stdout: string;
}

/** Whole-tree RSS in MB of `pid` and its descendants, from /proc. */
function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  let total = 0;
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1] ?? 0);
      rss.set(Number(entry), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone while read
    }
  }
  const walk = (at: number) => {
    total += rss.get(at) ?? 0;
    for (const child of children.get(at) ?? []) walk(child);
  };
  walk(pid);
  return total;
}

/** One command under GNU time, its process tree's memory sampled while it runs. */
function timed(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'TIME %e %U %S %M', command, ...commandArgs], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, treeRssMb(child.pid!))), 50);
    child.once('error', reject);
    child.once('close', () => {
      clearInterval(timer);
      const line = /^TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)$/m.exec(stderr);
      if (!line) return reject(new Error(`no timing from ${command} ${commandArgs.join(' ')}: ${stderr.slice(-500)}`));
      resolvePromise({
        wall_s: Number(line[1]),
        cpu_s: round(Number(line[2]) + Number(line[3]), 2),
        max_process_mb: Math.round(Number(line[4]) / 1024),
        tree_peak_mb: Math.round(peak),
        stdout,
      });
    });
  });
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1]!;

const ukcd = join(root, 'bin/ukcd.mjs');

async function processStart(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'ukcd-bench-pdf-'));
  try {
    const empty = join(dir, 'empty.pdf');
    writeFileSync(empty, '');
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push((await timed(process.execPath, [ukcd, 'parse', empty])).cpu_s);
    return median(runs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface FileResult {
  file: string;
  pages: number;
  balance_sheet_page: number | null;
  cpu_s: number[];
  cpu_s_median: number;
  net_cpu_s_median: number;
  wall_s_median: number;
  tree_peak_mb: number;
  max_process_mb: number;
}

async function benchReader(dir: string, samples: Sample[], start: number): Promise<FileResult[]> {
  const results: FileResult[] = [];
  for (const sample of samples) {
    const path = join(dir, sample.file);
    const pages = Number(
      /^Pages:\s+(\d+)/m.exec(
        execFileSync('pdfinfo', [path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
      )?.[1] ?? 0,
    );
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timed(process.execPath, [ukcd, 'parse', path]));
    const parsed = JSON.parse(runs[0]!.stdout.trim().split('\n')[0]!) as { pages?: { balance_sheet: number | null } };
    const cpu = runs.map((r) => r.cpu_s);
    const result: FileResult = {
      file: sample.file,
      pages,
      balance_sheet_page: parsed.pages?.balance_sheet ?? null,
      cpu_s: cpu,
      cpu_s_median: median(cpu),
      net_cpu_s_median: round(median(cpu) - start, 2),
      wall_s_median: median(runs.map((r) => r.wall_s)),
      tree_peak_mb: Math.max(...runs.map((r) => r.tree_peak_mb)),
      max_process_mb: Math.max(...runs.map((r) => r.max_process_mb)),
    };
    console.log(
      `${sample.file}: ${pages} pages, CPU ${cpu.join(' / ')} s (net median ${result.net_cpu_s_median} s), ` +
        `wall ${result.wall_s_median} s, tree peak ${result.tree_peak_mb} MB, largest process ${result.max_process_mb} MB`,
    );
    results.push(result);
  }
  return results;
}

/** The printed digits of each hand-read balance-sheet value that is not nil, once each. */
function printedDigits(sample: Sample): string[] {
  const keys = [
    'net_assets',
    'equity',
    'total_assets_less_current_liabilities',
    'cash',
    'current_assets',
    'creditors_within_one_year',
    'creditors_after_one_year',
    'debtors',
  ] as const;
  const digits = keys
    .map((key) => sample.values[key])
    .filter((value): value is number => value !== null && value !== 0)
    .map((value) => String(Math.abs(value) / sample.scale));
  return [...new Set(digits)];
}

/** Which of `wanted` the text holds as a whole number, thousands separators aside. */
function found(text: string, wanted: string[]): number {
  const numbers = new Set((text.match(/\d[\d,.]*\d|\d/g) ?? []).map((token) => token.replace(/[,.]/g, '')));
  return wanted.filter((digits) => numbers.has(digits)).length;
}

interface EngineResult {
  file: string;
  page: number;
  wanted: number;
  native: { found: number; cpu_s: number };
  tesseract_js: { found: number; cpu_s: number };
}

async function benchEngines(dir: string, samples: Sample[], reader: FileResult[]) {
  const { createWorker, OEM } = await import('tesseract.js');
  const langPath = join(
    dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')),
    '4.0.0',
  );
  const cachePath = mkdtempSync(join(tmpdir(), 'ukcd-tesseract-js-'));
  const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath, cachePath, gzip: true });
  await worker.setParameters({ tessedit_pageseg_mode: '6' as never });
  const scratch = mkdtempSync(join(tmpdir(), 'ukcd-bench-pages-'));
  const results: EngineResult[] = [];
  let jsPeakMb = 0;
  try {
    for (const sample of samples) {
      const page = reader.find((r) => r.file === sample.file)?.balance_sheet_page;
      if (!page) continue;
      const prefix = join(scratch, sample.file.replace(/\W/g, '_'));
      execFileSync('pdfimages', ['-f', String(page), '-l', String(page), '-png', join(dir, sample.file), prefix], {
        stdio: 'ignore',
      });
      const image = readdirSync(scratch)
        .filter((name) => join(scratch, name).startsWith(prefix))
        .sort()[0]!;
      const imagePath = join(scratch, image);
      const wanted = printedDigits(sample);
      const native = await timed('tesseract', [imagePath, 'stdout', '--psm', '6'], {
        ...process.env,
        OMP_THREAD_LIMIT: '1',
      });
      const before = process.cpuUsage();
      const { data } = await worker.recognize(imagePath);
      const used = process.cpuUsage(before);
      jsPeakMb = Math.max(jsPeakMb, process.memoryUsage().rss / 1024 / 1024);
      const result: EngineResult = {
        file: sample.file,
        page,
        wanted: wanted.length,
        native: { found: found(native.stdout, wanted), cpu_s: native.cpu_s },
        tesseract_js: { found: found(data.text, wanted), cpu_s: round((used.user + used.system) / 1e6, 2) },
      };
      console.log(
        `${sample.file} p${page}: native ${result.native.found}/${wanted.length} in ${result.native.cpu_s} s; ` +
          `tesseract.js ${result.tesseract_js.found}/${wanted.length} in ${result.tesseract_js.cpu_s} s`,
      );
      results.push(result);
    }
  } finally {
    await worker.terminate();
    rmSync(scratch, { recursive: true, force: true });
    rmSync(cachePath, { recursive: true, force: true });
  }
  const total = (pick: (r: EngineResult) => number) => results.reduce((sum, r) => sum + pick(r), 0);
  return {
    pages: results.length,
    wanted: total((r) => r.wanted),
    native: {
      found: total((r) => r.native.found),
      cpu_s_median: median(results.map((r) => r.native.cpu_s)),
      cpu_s_total: round(
        total((r) => r.native.cpu_s),
        2,
      ),
    },
    tesseract_js: {
      found: total((r) => r.tesseract_js.found),
      cpu_s_median: median(results.map((r) => r.tesseract_js.cpu_s)),
      cpu_s_total: round(
        total((r) => r.tesseract_js.cpu_s),
        2,
      ),
      process_rss_peak_mb: Math.round(jsPeakMb),
    },
    files: results,
  };
}

async function main(): Promise<void> {
  const { dir, samples: all } = readManifest(args.samples);
  const samples = all.filter((sample) => args.only === undefined || sample.file.includes(args.only));
  console.log(
    `${samples.length} scans in ${dir}; ${RUNS} runs each; ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const start = await processStart();
  console.log(`process start (ukcd parse of an empty .pdf): ${start} CPU-s`);
  const reader = await benchReader(dir, samples, start);
  const net = reader.map((r) => r.net_cpu_s_median);
  const summary = {
    filings: reader.length,
    process_start_cpu_s: start,
    net_cpu_s_per_filing: { median: median(net), p90: quantile(net, 0.9), max: Math.max(...net) },
    gross_cpu_s_per_filing_median: median(reader.map((r) => r.cpu_s_median)),
    pages_median: median(reader.map((r) => r.pages)),
    tree_peak_mb_max: Math.max(...reader.map((r) => r.tree_peak_mb)),
    max_process_mb_max: Math.max(...reader.map((r) => r.max_process_mb)),
  };
  console.log(JSON.stringify(summary));
  const engines = args.engines ? await benchEngines(dir, samples, reader) : null;
  if (engines) {
    const { files: _files, ...totals } = engines;
    console.log(JSON.stringify(totals));
  }
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    join(root, 'bench/results/pdf.json'),
    `${JSON.stringify({ at: new Date().toISOString(), load_average: loadavg(), runs: RUNS, summary, files: reader, engines }, null, 2)}\n`,
  );
}

await main();

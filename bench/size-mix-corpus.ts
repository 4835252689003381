/**
 * A corpus with the size mix of real filings, built reproducibly from a generated corpus and the
 * real samples: median about 18 KB, 90th percentile about 77 KB, and a tail of 0.5–2 MB full
 * accounts.
 *
 * Each of `count` draws (seeded) takes a target size — 99% from a log-normal with median 18 KB
 * and 90th percentile 77 KB, 1% log-uniform between 0.5 and 2 MB — and then the pooled filing
 * nearest to it in size, picked at random among the 25 nearest so that no single file dominates
 * a size band. The pool is every filing of the generated corpus (13–83 KB, iXBRL) and the real
 * iXBRL samples (9 KB–1.8 MB, among them nine full accounts of 0.5–1.8 MB). Generated filings are
 * never smaller than about 13 KB, so draws below that take the smallest generated ones: the
 * corpus's own quantiles are printed by bench/parse and recorded in BENCHMARKS.md.
 */
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yazl from 'yazl';
import { filingSources } from '../loaders/filing-sources.ts';
import { Random } from '../src/synthetic/random.ts';

const MEDIAN = 18 * 1024;
const P90 = 77 * 1024;
const SIGMA = Math.log(P90 / MEDIAN) / 1.2816;
const TAIL_SHARE = 0.01;
const NEAREST = 25;
const PER_ZIP = 1000;

interface Pooled {
  name: string;
  bytes: Buffer;
}

function targetSize(rng: Random): number {
  if (rng.chance(TAIL_SHARE)) return Math.exp(rng.uniform(Math.log(500_000), Math.log(2_000_000)));
  return rng.logNormal(MEDIAN, SIGMA);
}

/** Index of the first pooled filing not smaller than `size` (the pool is sorted by size). */
function lowerBound(pool: readonly Pooled[], size: number): number {
  let lo = 0;
  let hi = pool.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pool[mid]!.bytes.length < size) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function pickNear(pool: readonly Pooled[], size: number, rng: Random): Pooled {
  const at = lowerBound(pool, size);
  // The NEAREST filings around `at`, then one of them at random.
  let lo = at;
  let hi = at;
  while (hi - lo < NEAREST && (lo > 0 || hi < pool.length)) {
    const below = lo > 0 ? size - pool[lo - 1]!.bytes.length : Infinity;
    const above = hi < pool.length ? pool[hi]!.bytes.length - size : Infinity;
    if (below <= above) lo--;
    else hi++;
  }
  return pool[rng.int(lo, hi - 1)]!;
}

export async function writeSizeMixCorpus(
  generatedCorpus: string,
  samplesDir: string,
  outDir: string,
  count: number,
  seed = 20261126,
): Promise<void> {
  const pool: Pooled[] = [];
  for await (const source of filingSources([generatedCorpus], {
    onProblem: (problem) => {
      throw new Error(`the generated corpus has a bad filing: ${problem.file}: ${problem.error.message}`);
    },
  })) {
    pool.push({ name: source.name, bytes: source.bytes });
  }
  for (const name of readdirSync(samplesDir).sort()) {
    if (/\.x?html?$/i.test(name)) pool.push({ name, bytes: readFileSync(join(samplesDir, name)) });
  }
  pool.sort((a, b) => a.bytes.length - b.bytes.length || (a.name < b.name ? -1 : 1));

  mkdirSync(outDir, { recursive: true });
  const rng = new Random(seed);
  for (let first = 0; first < count; first += PER_ZIP) {
    const zip = new yazl.ZipFile();
    for (let i = first; i < Math.min(count, first + PER_ZIP); i++) {
      const chosen = pickNear(pool, targetSize(rng), rng);
      zip.addBuffer(chosen.bytes, chosen.name);
    }
    zip.end();
    const target = join(outDir, `Accounts_Bulk_Data-mix-${String(first / PER_ZIP).padStart(3, '0')}.zip`);
    await new Promise<void>((done, fail) =>
      zip.outputStream.pipe(createWriteStream(target)).on('close', done).on('error', fail),
    );
  }
}

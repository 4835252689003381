/**
 * bench/synthetic: how fast the synthetic filing generator runs on one core, and optionally how
 * fast its filings are written to daily bulk zips.
 *
 *   npx tsx bench/synthetic.ts                          # 20,000 filings, generation only
 *   npx tsx bench/synthetic.ts --filings 100000 --zip   # also write the zips (to a temp folder)
 *
 * Generation is timed by wall clock and by this process's CPU time, after a warm-up round, so a
 * busy machine shows up as the gap between the two.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeBulkZips } from '../src/synthetic/bulk-zip.ts';
import { syntheticFilings } from '../src/synthetic/filings.ts';
import { limit } from './limit.ts';

function generate(seed: number, filings: number, years: number): { sizes: number[]; styles: Record<string, number> } {
  const sizes: number[] = [];
  const styles: Record<string, number> = {};
  const source = syntheticFilings({ seed, companies: Math.ceil(filings / years) + 10, yearsPerCompany: years });
  for (const filing of limit(source, filings)) {
    sizes.push(filing.bytes.length);
    styles[filing.style] = (styles[filing.style] ?? 0) + 1;
  }
  return { sizes, styles };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      filings: { type: 'string', default: '20000' },
      years: { type: 'string', default: '3' },
      seed: { type: 'string', default: '20261121' },
      zip: { type: 'boolean', default: false },
    },
  });
  const filings = Number(values.filings);
  const years = Number(values.years);
  const seed = Number(values.seed);

  generate(seed + 1, Math.min(2000, filings), years);
  const wall = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const { sizes, styles } = generate(seed, filings, years);
  const seconds = Number(process.hrtime.bigint() - wall) / 1e9;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const bytes = sizes.reduce((a, b) => a + b, 0);
  sizes.sort((a, b) => a - b);
  const lines = [
    `generated ${sizes.length} filings (${(bytes / 1e6).toFixed(1)} MB) in ${seconds.toFixed(2)} s`,
    `  ${(sizes.length / seconds).toFixed(0)} filings/s wall clock, ${(sizes.length / cpuSeconds).toFixed(0)} filings/s of CPU, ${(bytes / 1e6 / seconds).toFixed(1)} MB/s`,
    `  size: median ${(sizes[sizes.length >> 1]! / 1024).toFixed(1)} KB, 5% ${(sizes[Math.floor(sizes.length * 0.05)]! / 1024).toFixed(1)} KB, 95% ${(sizes[Math.floor(sizes.length * 0.95)]! / 1024).toFixed(1)} KB`,
    `  styles: ${Object.entries(styles)
      .map(([style, n]) => `${style} ${n}`)
      .join(', ')}`,
  ];
  if (values.zip) {
    const dir = await mkdtemp(join(tmpdir(), 'synthetic-bench-'));
    try {
      const started = process.hrtime.bigint();
      const source = syntheticFilings({ seed, companies: Math.ceil(filings / years) + 10, yearsPerCompany: years });
      const result = await writeBulkZips(limit(source, filings), dir);
      const zipSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      lines.push(
        `zipped ${result.filings} filings into ${result.zips.length} daily zips (${(result.bytes / 1e6).toFixed(1)} MB) in ${zipSeconds.toFixed(2)} s: ${(result.filings / zipSeconds).toFixed(0)} filings/s`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  lines.push(
    `  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; node ${process.version}, one thread`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();

/**
 * `ukcd generate accounts --out DIR [--companies N] [--years N] [--seed N]`: synthetic accounts
 * bulk zips in the real format, for tests, the sample dataset and benchmarks.
 */
import { parseArgs } from 'node:util';

export async function runGenerateCommand(args: readonly string[]): Promise<number> {
  const [what, ...rest] = args;
  if (what !== 'accounts') {
    process.stderr.write('usage: ukcd generate accounts --out DIR [--companies N] [--years N] [--seed N]\n');
    return 2;
  }
  const { values } = parseArgs({
    args: [...rest],
    options: {
      out: { type: 'string' },
      companies: { type: 'string', default: '1000' },
      years: { type: 'string', default: '3' },
      seed: { type: 'string', default: '1' },
    },
  });
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
  const started = Date.now();
  const result = await writeBulkZips(syntheticFilings({ seed, companies, yearsPerCompany: years }), values.out);
  const seconds = (Date.now() - started) / 1000;
  process.stderr.write(
    `wrote ${result.filings} filings (${(result.bytes / 1e6).toFixed(1)} MB) in ${result.zips.length} bulk zips to ${values.out} in ${seconds.toFixed(1)}s\n`,
  );
  return 0;
}

/**
 * Proof that the skimmer changes nothing: a fingerprint — SHA-256 over every filing's name and
 * parse result, JSON with keys in sorted order — of a corpus parsed with the skimmer and with
 * the whole document tokenised (`skim: false`, the parser as it was), and the filings whose two
 * results differ.
 */
import { createHash } from 'node:crypto';
import { filingSources } from '../loaders/filing-sources.ts';
import { parseFiling } from '../src/accounts/parse-filing.ts';

export interface Fingerprints {
  corpus: string;
  filings: number;
  full: string;
  skim: string;
  /** Names of the filings whose results differ (the first ten). */
  differing: string[];
  differingCount: number;
}

/** JSON with object keys sorted, so the text depends only on the values. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export async function fingerprintCorpus(corpus: string, label: string): Promise<Fingerprints> {
  const full = createHash('sha256');
  const skim = createHash('sha256');
  const differing: string[] = [];
  let differingCount = 0;
  let filings = 0;
  const onProblem = (problem: { file: string; error: { message: string } }) => {
    throw new Error(`${problem.file}: ${problem.error.message}`);
  };
  for await (const source of filingSources([corpus], { onProblem })) {
    filings++;
    const before = stableJson(parseFiling(source.bytes, source.name, { skim: false }));
    const after = stableJson(parseFiling(source.bytes, source.name, { skim: true }));
    full.update(`${source.name}\0${before}\n`);
    skim.update(`${source.name}\0${after}\n`);
    if (before !== after) {
      differingCount++;
      if (differing.length < 10) differing.push(source.name);
    }
  }
  return { corpus: label, filings, full: full.digest('hex'), skim: skim.digest('hex'), differing, differingCount };
}

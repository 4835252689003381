/**
 * The stages bench/parse times in a child process, each reading the same bulk zips exactly as the
 * loader does (`filingSources`: zip central directory, inflate, CRC check), on one thread:
 *
 * - `inflate`: nothing more — the cost of getting the bytes out of the zips;
 * - `floor`: also count the inline XBRL tags in the raw bytes with `Buffer.indexOf`, the fastest
 *   primitive there is for finding them: the limit any parser is measured against;
 * - `parse`: `parseFiling` on every filing, as the loader's workers run it;
 * - `parse-full`: the same with `skim: false`, tokenising every tag of every document: the parser
 *   as it was before the skimmer, which it still falls back to.
 */
import { filingSources } from '../loaders/filing-sources.ts';
import { parseFiling } from '../src/accounts/parse-filing.ts';

export type Stage = 'inflate' | 'floor' | 'parse' | 'parse-full';

export interface StageMeasurement {
  stage: Stage;
  corpus: string;
  filings: number;
  failed: number;
  megabytes: number;
  seconds: number;
  /** CPU time of the process (all its threads): on a shared machine, the honest "per core" measure. */
  cpuSeconds: number;
  /** Time inside parseFiling (parse stage) or the tag count (floor stage), without the unzip. */
  innerSeconds: number;
  filingsPerSecond: number;
  megabytesPerSecond: number;
  medianKilobytes: number;
  p90Kilobytes: number;
  /** Floor stage: inline XBRL tags found, so the scan cannot be optimised away. */
  tags: number;
  peakRssMegabytes: number;
}

const FLOOR_TAGS = ['<ix:nonFraction', '<ix:nonNumeric', '<xbrli:context'].map((tag) => Buffer.from(tag));

function countTags(bytes: Buffer): number {
  let count = 0;
  for (const tag of FLOOR_TAGS) {
    for (let at = bytes.indexOf(tag); at >= 0; at = bytes.indexOf(tag, at + tag.length)) count++;
  }
  return count;
}

/** Run one stage over a corpus (`repeat` times over), timing it whole and its inner part. */
export async function measureStage(
  stage: Stage,
  corpus: string,
  label: string,
  repeat: number,
): Promise<StageMeasurement> {
  const sizes: number[] = [];
  let failed = 0;
  let bytes = 0;
  let innerNs = 0n;
  let tags = 0;
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  for (let round = 0; round < repeat; round++) {
    for await (const source of filingSources([corpus], { onProblem: () => failed++ })) {
      if (stage !== 'inflate') {
        const t = process.hrtime.bigint();
        if (stage === 'floor') tags += countTags(source.bytes);
        else if (!parseFiling(source.bytes, source.name, { skim: stage === 'parse' }).ok) failed++;
        innerNs += process.hrtime.bigint() - t;
      }
      bytes += source.bytes.length;
      sizes.push(source.bytes.length);
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStarted);
  sizes.sort((a, b) => a - b);
  return {
    stage,
    corpus: label,
    filings: sizes.length,
    failed,
    megabytes: bytes / 1e6,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    innerSeconds: Number(innerNs) / 1e9,
    filingsPerSecond: sizes.length / seconds,
    megabytesPerSecond: bytes / 1e6 / seconds,
    medianKilobytes: (sizes[Math.floor(sizes.length / 2)] ?? 0) / 1024,
    p90Kilobytes: (sizes[Math.floor(sizes.length * 0.9)] ?? 0) / 1024,
    tags,
    peakRssMegabytes: process.resourceUsage().maxRSS / 1024,
  };
}

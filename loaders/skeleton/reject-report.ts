/**
 * The rejections of a load, each with its reason, file and line: counted, written to a report
 * file (created on the first, under the report folder) and the first few said in the log.
 */
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The first rejections said in the log; the report has them all. */
const ANNOUNCED = 5;

export interface RejectReport<Rejection> {
  /** Counts it, writes it to the report and, among the first few, to the log. */
  reject(rejection: Rejection): Promise<void>;
  /** Rejections so far. */
  readonly count: number;
  /** The report file, once something was rejected. */
  readonly path: string | null;
  /** Ends the report file (when there is one). */
  close(): Promise<void>;
}

export interface RejectReportOptions<Rejection> {
  reportDir: string;
  /** The report's file name, asked for on the first rejection. */
  fileName: () => string;
  /** The rejection as a line of the report (without its newline). */
  line: (rejection: Rejection) => string;
  /** The rejection as said in the log. */
  announce: (rejection: Rejection) => string;
  log: (line: string) => void;
}

export function createRejectReport<Rejection>(options: RejectReportOptions<Rejection>): RejectReport<Rejection> {
  let count = 0;
  let path: string | null = null;
  let report: WriteStream | null = null;
  return {
    async reject(rejection) {
      count++;
      if (report === null) {
        await mkdir(options.reportDir, { recursive: true });
        path = join(options.reportDir, options.fileName());
        report = createWriteStream(path);
      }
      report.write(`${options.line(rejection)}\n`);
      if (count <= ANNOUNCED) options.log(options.announce(rejection));
    },
    get count() {
      return count;
    },
    get path() {
      return path;
    },
    async close() {
      const open = report as WriteStream | null;
      if (open) await new Promise<void>((done) => open.end(done));
    },
  };
}

/** A record of an input file rejected at a line, as the snapshot loads report it. */
export interface LineRejection {
  label: string;
  line: number;
  reason: string;
}

/** The report of a snapshot load (register, PSC): `<kind>-<date>-rejected.txt`, a line each. */
export function lineRejectReport(options: {
  reportDir: string;
  kind: string;
  snapshotDate: string;
  log: (line: string) => void;
}): RejectReport<LineRejection> {
  return createRejectReport<LineRejection>({
    reportDir: options.reportDir,
    fileName: () => `${options.kind}-${options.snapshotDate}-rejected.txt`,
    line: ({ label, line, reason }) => `${label} line ${line}: ${reason}`,
    announce: ({ label, line, reason }) => `rejected ${label} line ${line}: ${reason}`,
    log: options.log,
  });
}

/**
 * A benchmarked process's peak resident memory while a run lasts, read from /proc every half
 * second and once more when the run stops.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export function sampleRss(child: ChildProcess): { stop(): number } {
  let peak = 0;
  const read = () => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peak = Math.max(peak, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      // the process is gone
    }
  };
  const timer = setInterval(read, 500);
  return {
    stop() {
      clearInterval(timer);
      read();
      return Math.round(peak);
    },
  };
}

/**
 * What every surface's calls run on: the operations' ports, and the pipeline's own (the keys and
 * their quota, the clock, the counters it increments, the operational log).
 */
import type { OperationDeps } from '../operations/operation.ts';
import type { AsOf } from '../operations/envelope.ts';
import type { KeyStore } from '../ports/keys.ts';
import type { CallMetrics } from './metrics.ts';

export interface CallDeps extends OperationDeps {
  keys: KeyStore;
  /** Now; tests inject a clock to cross a month boundary. */
  clock: () => Date;
  metrics: CallMetrics;
  /** How fresh the data is, for every answer's `as_of` (as-of.ts: read through a short cache). */
  asOf: () => Promise<AsOf>;
  /** Operational messages (stderr): failures of ours, with their stack. */
  log: (line: string) => void;
}

/**
 * The risk band, derived only from the signals (docs/search.md, "Rules"):
 * - high: any high-severity signal (dissolved or distressed status, negative net assets), or three
 *   or more medium ones: a company dissolved, removed, in liquidation, administration or
 *   receivership is never low, whatever its last accounts showed;
 * - medium: one or two medium-severity signals;
 * - low: machine-readable accounts on file and nothing above;
 * - unknown: no machine-readable accounts and nothing above, since the figures that would
 *   show trouble are missing.
 * Low-severity signals (charges outstanding) never raise the band: a charge is ordinary secured
 * lending.
 */
import type { Signal } from './signals.ts';

export const RISK_BANDS = ['low', 'medium', 'high', 'unknown'] as const;
export type RiskBand = (typeof RISK_BANDS)[number];

export function riskBand(signals: readonly Signal[]): RiskBand {
  const medium = signals.filter((s) => s.severity === 'medium').length;
  if (signals.some((s) => s.severity === 'high') || medium >= 3) return 'high';
  if (medium > 0) return 'medium';
  if (signals.some((s) => s.code === 'no_machine_readable_accounts')) return 'unknown';
  return 'low';
}

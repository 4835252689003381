/**
 * A signed-in key's monthly quota as the pages tell it: how much API calls and CSV downloads used
 * this month, and when it starts again. Read, never counted: page views are not charged to it.
 */
import type { ApiKeyRecord } from '../domain/api-keys.ts';
import { nextMonthStart, PLANS, usageMonth } from '../domain/api-keys.ts';
import { formatDate } from './format.ts';
import { html } from './html.ts';
import type { SafeHtml } from './html.ts';
import type { WebDeps } from './page.ts';

export interface QuotaUse {
  used: number;
  limit: number;
  /** The first moment of next month (UTC), when the count starts again. */
  resets: Date;
}

/** The key's use of this month's quota, by the app's clock. */
export async function quotaOf(deps: Pick<WebDeps, 'keys' | 'clock'>, key: ApiKeyRecord): Promise<QuotaUse> {
  const now = deps.clock();
  const listed = await deps.keys.listKeys(usageMonth(now), key.prefix);
  return {
    used: listed.find((row) => row.id === key.id)?.used ?? 0,
    limit: PLANS[key.plan].monthly_quota,
    resets: nextMonthStart(now),
  };
}

/** When a quota starts again, in words: "1 July 2025 at 00:00 UTC". */
export function resetsInWords(resets: Date): string {
  return `${formatDate(resets.toISOString())} at 00:00 UTC`;
}

/** One paragraph: what of the quota is used, what is charged to it, and when it resets. */
export function quotaLine(quota: QuotaUse): SafeHtml {
  return html`<p class="quota-line">Your key has used ${quota.used.toLocaleString('en-GB')} of its ${quota.limit.toLocaleString('en-GB')} API requests this month; the count starts again on ${resetsInWords(quota.resets)}. API calls and CSV downloads are charged to it; reading these pages is not.</p>`;
}

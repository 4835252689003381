/**
 * The catch-up of a stream's gap (a 416: the events between the last one applied and the restart
 * are lost) through the Public Data API: for every watched company, the resources of the stream
 * that lost events (its insolvency cases, charges, PSCs, officers or filing history) and then its
 * profile are fetched through the shared API client (one rate limiter for every caller) and applied
 * by the same appliers as stream events, so alerts and webhooks follow as for those. The stream's
 * own resources go first, in the same transaction: a charge delivered during the gap is then judged
 * against the company's facts from before it. Companies are done in number order and the gap
 * remembers the last one done, so a catch-up interrupted resumes there; one process fills a gap
 * at a time (a lease). The rest of the register is refreshed by the next snapshot load.
 */
import { wakeableSleep } from '../shared-work/wakeable-sleep.ts';
import type { CompaniesHouseApi } from '../ports/companies-house-api.ts';
import type { StreamApplier, StreamEvent } from '../ports/stream-appliers.ts';
import type { OpenGap, StreamGaps } from '../ports/stream-gaps.ts';

/**
 * Where the Public Data API serves, for one company, what each stream's events carry. `recentDays`:
 * only the items dated (their `date`) at most that many days before the gap began are applied.
 */
const RESOURCES: Record<string, { path: string; list: boolean; recentDays?: number }> = {
  'insolvency-cases': { path: 'insolvency', list: false },
  charges: { path: 'charges', list: true },
  'persons-with-significant-control': { path: 'persons-with-significant-control', list: true },
  'persons-with-significant-control-statements': { path: 'persons-with-significant-control-statements', list: true },
  officers: { path: 'officers', list: true },
  // The filing history is the company's whole past: applying it would queue every accounts
  // document ever filed for the Document API (rate-limited and shared). Electronic accounts, the
  // only ones read, are registered within days of being filed; a month covers a slow examination.
  filings: { path: 'filing-history', list: true, recentDays: 31 },
};

/** Items a list page asks for (the API's maximum). */
const PAGE = 100;

export interface GapFillerDeps {
  gaps: StreamGaps;
  api: CompaniesHouseApi;
  /** The companies stream's applier: every watched company's profile is fetched and applied. */
  profiles: StreamApplier;
  /** The appliers of the streams followed, for the resources of the stream that lost events. */
  appliers: readonly StreamApplier[];
  /** Run with the companies a catch-up changed (alert detection). */
  afterFill?: (companies: string[]) => Promise<void>;
  log: (line: string) => void;
  /** This process, as it holds leases (hold-lease.ts's leaseHolder). */
  holder: string;
}

/** A filler's lease on a gap; each company renews it (a list's pages take a while at 2 requests a second). */
const LEASE_SECONDS = 300;

export interface GapFiller {
  /** Look for open gaps now (a stream just recorded one). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Fill the open gaps now, whenever woken, and every `pollMs` (a gap whose filler died is taken over
 * when its lease runs out); after a failure (the API down), again `retryMs` later.
 */
export function startGapFiller(deps: GapFillerDeps, options: { retryMs?: number; pollMs?: number } = {}): GapFiller {
  const controller = new AbortController();
  const idle = wakeableSleep(controller.signal, true);
  const loop = (async () => {
    while (!controller.signal.aborted) {
      await idle.sleep(options.pollMs ?? 60_000);
      idle.settle();
      try {
        for (const gap of await deps.gaps.claimOpen(deps.holder, LEASE_SECONDS)) {
          if (controller.signal.aborted) break;
          await fillGap(deps, gap, controller.signal);
        }
      } catch (error) {
        if (controller.signal.aborted) break;
        const retryMs = options.retryMs ?? 60_000;
        deps.log(`streams: the REST catch-up of a gap stopped: ${(error as Error).message}; resuming in ${retryMs} ms`);
        await new Promise<void>((done) => {
          const timer = setTimeout(done, retryMs);
          controller.signal.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
        });
        idle.wake();
      }
    }
  })();
  return {
    wake: idle.wake,
    async stop() {
      controller.abort();
      await loop;
    },
  };
}

/** Fetch and apply every watched company after the gap's last one done; then mark the gap filled. */
async function fillGap(deps: GapFillerDeps, gap: OpenGap, signal: AbortSignal): Promise<void> {
  const own = RESOURCES[gap.stream];
  const applier = own ? deps.appliers.find((candidate) => candidate.stream === gap.stream) : undefined;
  const counts: Record<string, number> = { companies: 0, applied: 0, not_found: 0, items: 0, ...gap.counts };
  deps.log(
    `stream ${gap.stream}: filling gap ${gap.id} through the REST API for the watched companies` +
      (gap.afterCompany ? ` (resuming after ${gap.afterCompany})` : ''),
  );
  let after = gap.afterCompany;
  for (;;) {
    const companies = await deps.gaps.watchedAfter(after, PAGE);
    if (companies.length === 0) break;
    for (const number of companies) {
      if (signal.aborted) return;
      const fetchedAt = new Date().toISOString().slice(0, 19);
      const runs: { applier: StreamApplier; events: StreamEvent[] }[] = [];
      if (own && applier) {
        const items = await fetchResource(deps.api, number, own, signal);
        counts.items! += items.length;
        const from = own.recentDays === undefined ? null : daysBefore(gap.since, own.recentDays);
        const recent =
          from === null ? items : items.filter(({ data }) => !(typeof data.date === 'string' && data.date < from));
        runs.push({ applier, events: recent.map(({ uri, data }) => fetchedEvent(uri, data, fetchedAt)) });
      }
      const profile = await deps.api.getJson(`/company/${encodeURIComponent(number)}`, signal);
      if (isObject(profile)) {
        runs.push({ applier: deps.profiles, events: [fetchedEvent(`/company/${number}`, profile, fetchedAt)] });
      } else {
        counts.not_found! += 1;
      }
      counts.companies! += 1;
      const applied = await deps.gaps.applyFill(
        { id: gap.id, holder: deps.holder, seconds: LEASE_SECONDS },
        number,
        runs,
        counts,
      );
      if (applied === null) {
        deps.log(`stream ${gap.stream}: gap ${gap.id} is being filled by another process; leaving it to that one`);
        return;
      }
      if (applied.companies.length > 0) {
        counts.applied! += 1;
        // Stored with the gap's progress: detection failing now is caught up by the next full run.
        await deps
          .afterFill?.(applied.companies)
          .catch((error: unknown) =>
            deps.log(`stream ${gap.stream}: alert detection after a catch-up failed: ${(error as Error).message}`),
          );
      }
      after = number;
    }
  }
  await deps.gaps.markFilled({ id: gap.id, holder: deps.holder }, counts);
  deps.log(
    `stream ${gap.stream}: gap ${gap.id} filled through the REST API: ${counts.companies} watched companies fetched, ` +
      `${counts.applied} applied (newer than stored), ${counts.items} ${own ? own.path : ''} items, ${counts.not_found} not found; ` +
      `the rest of the register is refreshed by the next snapshot load`,
  );
}

/** A company's resource of a stream: one object, or every item of a paged list. */
async function fetchResource(
  api: CompaniesHouseApi,
  number: string,
  resource: { path: string; list: boolean },
  signal: AbortSignal,
): Promise<{ uri: string; data: Record<string, unknown> }[]> {
  const base = `/company/${encodeURIComponent(number)}/${resource.path}`;
  if (!resource.list) {
    const body = await api.getJson(base, signal);
    return isObject(body) ? [{ uri: `/company/${number}/${resource.path}`, data: body }] : [];
  }
  const items: { uri: string; data: Record<string, unknown> }[] = [];
  // The next page starts after the items read, so a list served in pages smaller than asked for
  // is still read whole.
  let start = 0;
  for (;;) {
    const body = await api.getJson(`${base}?items_per_page=${PAGE}&start_index=${start}`, signal);
    const page = isObject(body) && Array.isArray(body.items) ? body.items.filter(isObject) : [];
    for (const [i, data] of page.entries()) {
      const self = isObject(data.links) && typeof data.links.self === 'string' ? data.links.self : null;
      items.push({ uri: self ?? `/company/${number}/${resource.path}/${start + i}`, data });
    }
    start += page.length;
    const total = totalOf(body);
    if (page.length === 0 || (total === null ? page.length < PAGE : start >= total)) return items;
  }
}

/** The ISO day `days` before the ISO day `day`. */
function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * How many items a list holds in all. The officers, PSC and statement lists say `total_results`;
 * the filing history and the charges say `total_count`. A list saying neither ends at a short page.
 */
function totalOf(body: unknown): number | null {
  if (!isObject(body)) return null;
  for (const key of ['total_results', 'total_count']) {
    const total = body[key];
    if (typeof total === 'number' && Number.isSafeInteger(total)) return total;
  }
  return null;
}

/**
 * A resource fetched, as a stream event carrying it would be: published when it was fetched, so
 * a stream event published after that wins and one published before changes nothing. Timepoint 0
 * puts it before any stream event published in the same second.
 */
function fetchedEvent(uri: string, data: Record<string, unknown>, publishedAt: string): StreamEvent {
  return {
    resource_kind: 'rest-catch-up',
    resource_uri: uri,
    resource_id: uri.split('/').at(-1) ?? '',
    data,
    event: { timepoint: 0, published_at: publishedAt, type: 'changed' },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

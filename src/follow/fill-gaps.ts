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
 *
 * Deletions during the gap: the officers, PSC and statement lists show every item, resigned and
 * ceased ones too, but not a deleted one. So after a list is read whole (every page, as many items
 * as its total says, each with its self link), each stored appointment, PSC or statement of the
 * company absent from it is applied as a stream `deleted` event would be. A list not read whole (a
 * 404, a short count, an item without a self link) deletes nothing, and the log says so; a list
 * whose read fails stops the company's catch-up, to be resumed. PSCs a snapshot stored under their
 * etag cannot be matched to a list and are left to the next snapshot; charges and filings are
 * never deleted (their streams do not delete either).
 */
import { wakeableSleep } from '../shared-work/wakeable-sleep.ts';
import type { CompaniesHouseApi } from '../ports/companies-house-api.ts';
import type { StreamApplier, StreamEvent } from '../ports/stream-appliers.ts';
import type { OpenGap, StreamGaps } from '../ports/stream-gaps.ts';

/**
 * Where the Public Data API serves, for one company, what each stream's events carry. `recentDays`:
 * only the items dated (their `date`) at most that many days before the gap began are applied.
 */
const RESOURCES: Record<string, Resource> = {
  'insolvency-cases': { path: 'insolvency', list: false },
  charges: { path: 'charges', list: true },
  'persons-with-significant-control': { path: 'persons-with-significant-control', list: true, deletions: true },
  'persons-with-significant-control-statements': {
    path: 'persons-with-significant-control-statements',
    list: true,
    deletions: true,
  },
  officers: { path: 'officers', list: true, deletions: true },
  // The filing history is the company's whole past: applying it would queue every accounts
  // document ever filed for the Document API (rate-limited and shared). Electronic accounts, the
  // only ones read, are registered within days of being filed; a month covers a slow examination.
  filings: { path: 'filing-history', list: true, recentDays: 31 },
};

/**
 * `deletions`: the list shows every item the company has, ended ones too (resigned officers, ceased
 * PSCs), so an item stored but absent from a complete read was deleted during the gap. The stream
 * applies deletions of these three only; a charge is never deleted there.
 */
interface Resource {
  path: string;
  list: boolean;
  recentDays?: number;
  deletions?: boolean;
}

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
  const counts: Record<string, number> = {
    companies: 0,
    applied: 0,
    not_found: 0,
    items: 0,
    ...(own?.deletions ? { deleted: 0, incomplete: 0 } : {}),
    ...gap.counts,
  };
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
        // What is stored is read before the list: what the stream stores meanwhile is never taken
        // for deleted.
        const stored = own.deletions ? await deps.gaps.storedLinks(gap.stream, number) : null;
        const { items, incomplete } = await fetchResource(deps.api, number, own, signal);
        counts.items! += items.length;
        const from = own.recentDays === undefined ? null : daysBefore(gap.since, own.recentDays);
        const recent =
          from === null ? items : items.filter(({ data }) => !(typeof data.date === 'string' && data.date < from));
        const events = recent.map(({ uri, data }) => fetchedEvent(uri, data, fetchedAt));
        if (stored !== null && stored.length > 0) {
          if (incomplete === null) {
            const listed = new Set(items.map(({ uri }) => lastSegment(uri)));
            const gone = stored.filter((link) => !listed.has(lastSegment(link)));
            events.push(...gone.map((link) => deletedEvent(link, fetchedAt)));
            counts.deleted! += gone.length;
          } else {
            counts.incomplete! += 1;
            deps.log(
              `stream ${gap.stream}: company ${number}'s ${own.path} list was not read whole (${incomplete}); ` +
                `nothing of it is taken for deleted`,
            );
          }
        }
        runs.push({ applier, events });
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
      `${counts.applied} applied (newer than stored), ${counts.items} ${own ? own.path : ''} items, ` +
      (own?.deletions
        ? `${counts.deleted} deleted (stored, absent from a list read whole), ${counts.incomplete} lists not read whole, `
        : '') +
      `${counts.not_found} not found; ` +
      `the rest of the register is refreshed by the next snapshot load`,
  );
}

/**
 * A company's resource of a stream: one object, or every item of a paged list. `incomplete` says
 * why the items read may not be all the list holds (null: they are all, each with its self link):
 * only then can an item absent from them be taken for deleted.
 */
async function fetchResource(
  api: CompaniesHouseApi,
  number: string,
  resource: Resource,
  signal: AbortSignal,
): Promise<{ items: { uri: string; data: Record<string, unknown> }[]; incomplete: string | null }> {
  const base = `/company/${encodeURIComponent(number)}/${resource.path}`;
  if (!resource.list) {
    const body = await api.getJson(base, signal);
    return {
      items: isObject(body) ? [{ uri: `/company/${number}/${resource.path}`, data: body }] : [],
      incomplete: null,
    };
  }
  const items: { uri: string; data: Record<string, unknown> }[] = [];
  let incomplete: string | null = null;
  // The next page starts after the items read, so a list served in pages smaller than asked for
  // is still read whole.
  let start = 0;
  let said: number | null = null;
  for (;;) {
    const body = await api.getJson(`${base}?items_per_page=${PAGE}&start_index=${start}`, signal);
    const listed = isObject(body) && Array.isArray(body.items);
    const page = listed ? (body.items as unknown[]).filter(isObject) : [];
    for (const [i, data] of page.entries()) {
      const self = isObject(data.links) && typeof data.links.self === 'string' ? data.links.self : null;
      // Without its self link an item cannot be matched to what is stored.
      incomplete ??= self === null ? `an item at ${start + i} has no self link` : null;
      items.push({ uri: self ?? `/company/${number}/${resource.path}/${start + i}`, data });
    }
    start += page.length;
    const total = totalOf(body);
    said = total ?? said;
    if (page.length === 0 || (total === null ? page.length < PAGE : start >= total)) {
      // A 404 may be a company without items, or one the API does not serve now: never proof.
      if (body === null)
        incomplete ??=
          `the page from ${start} answered 404` + (said === null ? '' : `; ${start} items read, ${said} said`);
      else if (!listed) incomplete ??= `the page from ${start} is not a list`;
      else if (total === null) incomplete ??= 'no total given';
      else if (start !== total) incomplete ??= `${start} items read, ${total} said`;
      return { items, incomplete };
    }
  }
}

/** The last segment of a link path: the id the stream's appliers key an item by. */
function lastSegment(link: string): string {
  return link.slice(link.lastIndexOf('/') + 1);
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

/** A deletion, as the stream would have sent it for the item at `link`. */
function deletedEvent(link: string, publishedAt: string): StreamEvent {
  return {
    resource_kind: 'rest-catch-up',
    resource_uri: link,
    resource_id: lastSegment(link),
    data: {},
    event: { timepoint: 0, published_at: publishedAt, type: 'deleted' },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

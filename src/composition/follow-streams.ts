/**
 * The follower as the service and `ukcd follow` run it: the appliers of the streams configured,
 * the stream ledger and alert detection on the store, the stream key from the configuration.
 */
import type { Config } from '../config.ts';
import { createStreamGaps } from '../adapters/postgres/stream-gaps.ts';
import { createStreamLedger } from '../adapters/postgres/stream-ledger.ts';
import { chargesApplier } from '../adapters/postgres/stream-charges.ts';
import { companiesApplier } from '../adapters/postgres/stream-companies.ts';
import { insolvencyApplier } from '../adapters/postgres/stream-insolvency.ts';
import { pscApplier } from '../adapters/postgres/stream-pscs.ts';
import { createDocumentQueue, filingsApplier } from '../adapters/postgres/stream-filings.ts';
import { openCompaniesHouseApi } from './open-companies-house.ts';
import type { CompaniesHouseApi } from '../ports/companies-house-api.ts';
import { startFollower } from '../follow/follower.ts';
import type { Follower } from '../follow/follower.ts';
import type { FollowObserver, StreamGet } from '../follow/follow-stream.ts';
import { get } from '../net/http-get.ts';
import type { StreamApplier, StreamEvent } from '../ports/stream-appliers.ts';
import { createDisqualifiedOfficersApplier, createOfficersApplier } from '../adapters/postgres/officer-appliers.ts';
import { leaseHolder } from '../shared-work/hold-lease.ts';
import type { OpenedStore } from './open-store.ts';
import { updateSearchAfterLoad } from './update-search.ts';

/** Every stream the service can apply, by its path. */
function streamAppliers(log: (line: string) => void): StreamApplier[] {
  // An officers event that cannot be read is skipped, said in the log, and never stops the stream.
  const onSkip = (event: StreamEvent, reason: string) =>
    log(
      `streams: ${event.resource_kind} event ${event.resource_uri} at timepoint ${event.event?.timepoint} skipped: ${reason}`,
    );
  return [
    companiesApplier(),
    filingsApplier(),
    chargesApplier(),
    insolvencyApplier(),
    pscApplier('persons-with-significant-control'),
    pscApplier('persons-with-significant-control-statements'),
    createOfficersApplier({ onSkip }),
    createDisqualifiedOfficersApplier({ onSkip }),
  ];
}

/**
 * The appliers of the streams CH_STREAMS names (every one the service applies when unset). Throws
 * naming a stream it cannot apply.
 */
function configuredAppliers(config: Pick<Config, 'CH_STREAMS'>, log: (line: string) => void): StreamApplier[] {
  const all = streamAppliers(log);
  if (!config.CH_STREAMS) return all;
  const wanted = config.CH_STREAMS.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return wanted.map((name) => {
    const applier = all.find((candidate) => candidate.stream === name);
    if (!applier) {
      throw new Error(
        `CH_STREAMS names "${name}", a stream this service does not apply; it applies ${all.map((a) => a.stream).join(', ')}`,
      );
    }
    return applier;
  });
}

/** Start following the configured streams; null when CH_STREAM_KEY is not set. */
export function followStreams(
  config: Config,
  opened: Pick<OpenedStore, 'sql' | 'store' | 'ownership' | 'alertDetections' | 'peopleSource'>,
  options: {
    log: (line: string) => void;
    observer?: FollowObserver;
    /** The process's API client, so that its one rate limiter covers every caller (else one is opened). */
    api?: CompaniesHouseApi | null;
  },
): Follower | null {
  if (!config.CH_STREAM_KEY) return null;
  const api = options.api === undefined ? openCompaniesHouseApi(config) : options.api;
  const appliers = configuredAppliers(config, options.log);
  if (!api && appliers.some((applier) => applier.stream === 'filings')) {
    options.log('streams: accounts documents are not fetched (CH_API_KEY is not set); filings are recorded only');
  }
  if (!api) options.log('streams: a gap (416) is not caught up through the REST API (CH_API_KEY is not set)');
  return startFollower(
    {
      ledger: createStreamLedger(opened.sql),
      appliers,
      detection: { store: opened.store, ownership: opened.ownership, detections: opened.alertDetections },
      // Opened for each run and closed after it, as a load does: Elasticsearch down at one tick is
      // a failure of that run only, and the next finds it back.
      index: {
        update: () => updateSearchAfterLoad(config, opened, options.log),
        intervalMs: config.UKCD_STREAM_INDEX_SECONDS * 1000,
      },
      ...(api ? { gapFill: { gaps: createStreamGaps(opened.sql), api, profiles: companiesApplier() } } : {}),
      ...(api && appliers.some((applier) => applier.stream === 'filings')
        ? {
            documents: {
              queue: createDocumentQueue(opened.sql),
              api,
              filings: opened.store,
              ...(options.observer?.document ? { outcome: options.observer.document } : {}),
            },
          }
        : {}),
    },
    {
      baseUrl: config.CH_STREAM_URL,
      key: config.CH_STREAM_KEY,
      get: get as StreamGet,
      stallMs: config.CH_STREAM_STALL_MS,
      lease: { holder: leaseHolder(), seconds: config.UKCD_STREAM_LEASE_SECONDS },
      log: options.log,
      ...(options.observer ? { observer: options.observer } : {}),
    },
  );
}

/**
 * Configuration, parsed once from the environment. No other module reads process.env.
 */
import * as z from 'zod';

/** One name of ALLOWED_HOSTS. */
const HostName = z.union([z.ipv4(), z.ipv6(), z.hostname()]);

const Variables = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * The address the service listens on. 127.0.0.1 by default: this machine only, so a service
   * started to try it is not open to the network. 0.0.0.0 (every IPv4 interface) or :: (every
   * interface) to serve other machines; the container image sets 0.0.0.0.
   */
  HOST: z.union([z.ipv4(), z.ipv6(), z.hostname()], 'an IP address or a host name').default('127.0.0.1'),
  /**
   * The names the service is reached by, comma-separated (`api.example.com,ukcd.internal`), for
   * the DNS rebinding check of /mcp and the web pages' form posts: their Host header, and their
   * Origin when a browser sends one, must name one of these, or the answer is 403. On a loopback
   * HOST the localhost names are always accepted too. `*` accepts any name (behind a proxy that
   * checks them itself). Unset on a non-loopback HOST: no check, and the start-up log says so.
   */
  ALLOWED_HOSTS: z
    .string()
    .transform((value) => value.split(',').map((name) => name.trim().toLowerCase()))
    .superRefine((names, ctx) => {
      if (names.length === 1 && names[0] === '*') return;
      for (const name of names)
        if (!HostName.safeParse(name).success)
          ctx.addIssue({
            code: 'custom',
            message: `"${name}" is not a host name or an IP address (no scheme or port; e.g. api.example.com), or * alone`,
          });
    })
    .optional(),
  /** Absent: the embedded PGlite store under DATA_DIR. */
  DATABASE_URL: z.url().optional(),
  /**
   * A read replica of DATABASE_URL (a hot standby). Set: the service reads companies, accounts
   * history, recent filings and Postgres search there; API keys, quotas and watchlists stay on
   * DATABASE_URL, as do the loaders and the indexer.
   */
  DATABASE_READ_URL: z.url().optional(),
  /** Absent: search runs on the store. */
  ELASTICSEARCH_URL: z.url().optional(),
  /** The alias searches read; rebuilds put versioned indexes (`companies_v2`, …) behind it. */
  ELASTICSEARCH_INDEX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lower-case letters, digits, - and _')
    .default('companies'),
  /** The alias people searches (search_people) read, versioned like the companies index. */
  ELASTICSEARCH_PEOPLE_INDEX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lower-case letters, digits, - and _')
    .default('people'),
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * Set: GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`. Unset: it is open, so
   * keep it off the public network (see docs/api.md#metrics).
   */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /**
   * One JSON line per request on stdout, formatted by pino and written in batches by the
   * service's log output (src/app/log-output.ts), which drops lines while the reader is gone or
   * more than 1 MiB behind, so a stuck log never holds up requests or shutdown. Ship stdout with
   * the platform's log collector; `false` turns it off.
   */
  LOG_REQUESTS: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((value) => value === 'true' || value === '1'),
  /** Behind a reverse proxy: take the client address (free-key limits) from X-Forwarded-For. */
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((value) => value === 'true' || value === '1'),
  /**
   * Accept webhook URLs on http and on private, loopback and link-local addresses: for tests and
   * closed networks only, never on a public service (the service would POST into its own network).
   */
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((value) => value === 'true' || value === '1'),
  /**
   * The key that seals webhook signing secrets in the database: base64 of 32 bytes
   * (`openssl rand -base64 32`). Unset: one is generated once and kept in DATA_DIR/webhook-secret.key.
   */
  WEBHOOK_SECRET_KEY: z.string().min(1).optional(),
  /**
   * Whether `ukcd start` runs the webhook sender. `false` on API instances that should only
   * serve, when another instance (or a dedicated one) sends; several senders may run at once.
   */
  DELIVER_WEBHOOKS: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((value) => value === 'true' || value === '1'),
  /**
   * How long the sender waits for a receiver's answer (connect, send, status line). 15 s, as the
   * webhook contract says; lower it only in tests.
   */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /**
   * How long a sender's claim on a delivery lasts: a sender killed mid-send leaves the delivery
   * to be sent again once it ends. Longer than WEBHOOK_TIMEOUT_MS (so a live attempt is never
   * claimed twice); unset, the timeout plus 30 s. Short only in tests that kill senders.
   */
  WEBHOOK_LEASE_MS: z.coerce.number().int().min(200).max(3_600_000).optional(),
  /** Where `ukcd sync` finds the Companies House download service (a mirror, or a test server). */
  CH_DOWNLOAD_URL: z.url().default('https://download.companieshouse.gov.uk/'),
  /**
   * The Companies House API key (REST and Document APIs; developer.company-information.service.gov.uk).
   * Unset: nothing is fetched from those APIs.
   */
  CH_API_KEY: z.string().min(1).optional(),
  /** The Public Data API's root; a mirror or a test server in tests. */
  CH_API_URL: z.url().default('https://api.company-information.service.gov.uk'),
  /** The Document API's root; `document_metadata` links are read against it. */
  CH_DOCUMENT_API_URL: z.url().default('https://document-api.company-information.service.gov.uk'),
  /**
   * The Companies House stream key (Streaming API; a key of its own, not CH_API_KEY). Set: `ukcd
   * start` follows the streams in the service process, and `ukcd follow` can run. docs/following-streams.md.
   */
  CH_STREAM_KEY: z.string().min(1).optional(),
  /** The Streaming API's root; a test server in tests. */
  CH_STREAM_URL: z.url().default('https://stream.companieshouse.gov.uk'),
  /**
   * The streams followed, comma-separated (`companies,filings`); unset: every stream the service
   * applies. A stream named that it cannot apply is refused at start.
   */
  CH_STREAMS: z.string().min(1).optional(),
  /**
   * A stream that sends nothing, not even a heartbeat, for this long is taken as stalled: the
   * connection is dropped and made again from the last event applied.
   */
  CH_STREAM_STALL_MS: z.coerce.number().int().min(100).max(3_600_000).default(90_000),
  /**
   * How long a follower's lease on a stream lasts unless renewed (every third of it): when a
   * follower dies, another takes its streams over after at most this long.
   */
  UKCD_STREAM_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  /**
   * While following the streams, the search indexes are brought up to date with what was applied
   * at most once per this many seconds (one run at a time, incremental), so that searches see a
   * change within about this long of its arrival.
   */
  UKCD_STREAM_INDEX_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  /**
   * The service's bound on waiting for PostgreSQL: a statement running longer is cancelled, a
   * server that does not answer at all is given up a second later, and a new connection must be
   * made within this. The request then answers 503. Loaders and `ukcd index` have no such bound.
   */
  DATABASE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /**
   * Connections the service keeps to PostgreSQL (and as many to DATABASE_READ_URL). More than the
   * database's cores only queue in the database: on a 2-core machine 3 served get_ownership a
   * quarter faster than 10 (BENCHMARKS.md). Requests beyond it wait for a connection in the
   * service, within DATABASE_TIMEOUT_MS.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  /** The service's bound on waiting for Elasticsearch (two tries of half of it each), then 503. */
  SEARCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** On SIGTERM, in-flight requests get this long to finish before their connections are cut. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** The web pages for people at / (search, company pages…); `false` serves the API only. */
  WEB_UI: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((value) => value === 'true' || value === '1'),
  /**
   * The most rows a lead list's "Download CSV" holds (web page): the list is read through the
   * operation's cursor, 50 rows a page, so 10,000 rows is 200 searches. A longer list is cut
   * there, and the page says so.
   */
  WEB_CSV_MAX_ROWS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /**
   * Web page views a minute from one client address without signing in (the address as
   * TRUST_PROXY reads it); beyond it a 429 page. Anonymous pages count against no key, so this is
   * what keeps them from being a way round the quotas. Per instance: counted in memory.
   */
  WEB_ANON_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /**
   * Web page views a minute for one signed-in key (all its sessions together); beyond it a 429
   * page. Signed-in pages are not charged to the key's monthly quota (CSV downloads and API calls
   * are), so this is what bounds them. Per instance: counted in memory.
   */
  WEB_SIGNED_IN_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
  /** How long a web sign-in (a session) lasts, in minutes; then the reader signs in again. */
  WEB_SESSION_TTL_MINUTES: z.coerce.number().int().min(5).max(43_200).default(720),
  /** Worker threads for parsing accounts; default: one per core. */
  UKCD_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * How long a process's claim on a bulk file (`ukcd load accounts`) or on a range of a full index
   * build (`ukcd index --full`) lasts unless renewed; the holder renews it every third of this.
   * Another process takes the work over when it runs out (its holder died). docs/shared-loads.md.
   */
  UKCD_LOAD_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(60),
  /** Companies per range of a full index build that several `ukcd index --full` processes share. */
  UKCD_INDEX_RANGE_COMPANIES: z.coerce.number().int().min(1).max(10_000_000).default(50_000),
});

/** Every environment variable the service and the `ukcd` command read. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(Variables.shape);

const Env = Variables.refine((env) => !env.DATABASE_READ_URL || env.DATABASE_URL, {
  message: 'DATABASE_READ_URL is a replica of DATABASE_URL: set DATABASE_URL too',
  path: ['DATABASE_READ_URL'],
}).refine((env) => env.WEBHOOK_LEASE_MS === undefined || env.WEBHOOK_LEASE_MS > env.WEBHOOK_TIMEOUT_MS, {
  message: 'WEBHOOK_LEASE_MS must be longer than WEBHOOK_TIMEOUT_MS (15000 unless set)',
  path: ['WEBHOOK_LEASE_MS'],
});

export type Config = z.infer<typeof Env>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = Env.safeParse(cleaned);
  if (!result.success) throw new Error(`Invalid configuration:\n${z.prettifyError(result.error)}`);
  return result.data;
}

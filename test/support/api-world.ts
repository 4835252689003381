/**
 * A running service for end-to-end tests: a store (PGlite or a fresh real Postgres database), a
 * search index (Postgres or a fresh Elasticsearch alias), data loaded through the real loaders
 * from register CSVs and accounts bulk zips written here, the HTTP app listening on a free port,
 * and a clock the test sets.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { indexPeople } from '../../loaders/index-people.ts';
import { indexSearch } from '../../loaders/index-search.ts';
import { loadAccounts } from '../../loaders/load-accounts.ts';
import { loadRegister } from '../../loaders/load-register.ts';
import { createEsSearchIndex, ensureIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import type { PostgresCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createKeyStore } from '../../src/adapters/postgres/key-store.ts';
import { createAlertDetectionStore } from '../../src/adapters/postgres/alert-detection-store.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { createSessionStore } from '../../src/adapters/postgres/session-store.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createPeopleSource } from '../../src/adapters/postgres/people-source.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { createPdfAccountsWork } from '../../src/adapters/postgres/pdf-accounts-work.ts';
import { createEsPeopleIndex, ensurePeopleIndex } from '../../src/adapters/elasticsearch/es-people-index.ts';
import { createPgPeopleIndex } from '../../src/adapters/pg-search/pg-people-index.ts';
import type { OperationDeps } from '../../src/operations/operation.ts';
import type { OwnershipReader, PscStore } from '../../src/ports/ownership.ts';
import type { PeopleIndex } from '../../src/ports/people-index.ts';
import { generateApiKey, hashApiKey, keyPrefix } from '../../src/domain/api-keys.ts';
import { buildApp, keepConnectionsAlive } from '../../src/app/app.ts';
import type { AllowedHosts } from '../../src/app/host-check.ts';
import type { KeyStore } from '../../src/ports/keys.ts';
import type { Plan } from '../../src/domain/api-keys.ts';
import type { SearchIndex } from '../../src/ports/search-index.ts';
import type { StreamLedger } from '../../src/ports/stream-ledger.ts';
import type { Sql } from '../../src/ports/sql.ts';
import type { WebSettings } from '../../src/web/settings.ts';
import type { TestStore } from './databases.ts';
import { elasticsearchUrl } from './elasticsearch.ts';
import { columnOf, registerRows, writeRegisterCsv } from './register-csv.ts';
import { testWebhookDeps } from './webhook-deps.ts';
import { writeZip } from './zip.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';

export interface WorldOptions {
  store: TestStore;
  search: 'postgres' | 'elasticsearch';
  now: Date;
  /** The web pages' settings (src/web/settings.ts); the defaults when left out. */
  web?: Partial<WebSettings>;
  /** The Host and Origin names /mcp and the form posts accept (src/app/host-check.ts); loopback by default. */
  allowedHosts?: AllowedHosts;
  /** Lookups queue companies without machine-readable accounts for their PDFs, as with CH_API_KEY set. */
  queuePdfAccounts?: boolean;
}

export interface World {
  url: string;
  sql: Sql;
  store: PostgresCompanyStore;
  keys: KeyStore;
  search: SearchIndex;
  /** The people index beside `search`, and the PSC store and reader on `sql`. */
  people: PeopleIndex;
  /** The settings that open these indexes (openSearch): Elasticsearch's URL and aliases, none on Postgres. */
  searchEnv: Record<string, string>;
  pscs: PscStore;
  ownership: OwnershipReader;
  /** The streams' positions, as the follower keeps them; every answer's as_of reads the newest. */
  streams: StreamLedger;
  /** What the operations run on, as the app has them. */
  /** The operations' deps, with the whole store (the app also reads its journal and pings it). */
  deps: OperationDeps & { store: PostgresCompanyStore };
  /** The request log's lines so far. */
  requestLines: string[];
  setNow(now: Date): void;
  /** A new key of the plan, as the operator CLI issues it. */
  issueKey(plan?: Plan): Promise<string>;
  /**
   * Load a register snapshot of these companies through the real loader, then update the index;
   * with `detectAlerts`, the load ends by detecting alerts as `ukcd load` does.
   */
  loadRegister(
    companies: readonly RegisterFixture[],
    snapshotDate: string,
    options?: { detectAlerts?: boolean },
  ): Promise<void>;
  /** Load one daily bulk zip of these filings through the real loader, then update the index. */
  loadAccounts(filings: readonly FilingFixture[], published: string): Promise<void>;
  /** Bring the search and people indexes up to date with the store, as a load ends by doing (after writing to `pscs`). */
  reindex(): Promise<void>;
  close(): Promise<void>;
}

export interface RegisterFixture {
  number: string;
  name: string;
  status?: string;
  category?: string;
  postTown?: string;
  incorporated?: string;
  nextDue?: string;
  /** Accounts.LastMadeUpDate; the cloned sample row's when not given, none when ''. */
  lastMadeUp?: string;
  charges?: number;
  outstanding?: number;
  sic?: string;
  /** The registered office's first line; the sample row's when left out. */
  addressLine1?: string;
}

export interface FilingFixture {
  number: string;
  name: string;
  balanceSheetDate: string;
  current: FigureFixture;
  prior?: FigureFixture;
}

interface FigureFixture {
  netAssets?: number;
  cash?: number;
  currentAssets?: number;
  turnover?: number;
  employees?: number;
  profit?: number;
  totalAssetsLessCurrentLiabilities?: number;
}

let worlds = 0;

export async function startWorld(options: WorldOptions): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'ukcd-world-'));
  const opened = await options.store.open();
  const { sql } = opened;
  const store = createCompanyStore(sql);
  const keys = createKeyStore(sql);
  let search: SearchIndex;
  let people: PeopleIndex;
  let target: string;
  let peopleTarget: string;
  let closeSearch = async () => {};
  let searchEnv: Record<string, string> = {};
  if (options.search === 'elasticsearch') {
    const client = new Client({ node: elasticsearchUrl() });
    const alias = `companies_api_${process.pid}_${++worlds}`;
    await ensureIndex({ client, alias });
    search = createEsSearchIndex({ client, alias });
    const peopleAlias = `people_api_${process.pid}_${worlds}`;
    await ensurePeopleIndex({ client, alias: peopleAlias });
    people = createEsPeopleIndex({ client, alias: peopleAlias });
    target = `elasticsearch:${alias}`;
    peopleTarget = `elasticsearch:${peopleAlias}`;
    searchEnv = {
      ELASTICSEARCH_URL: elasticsearchUrl(),
      ELASTICSEARCH_INDEX: alias,
      ELASTICSEARCH_PEOPLE_INDEX: peopleAlias,
    };
    closeSearch = async () => {
      await client.indices.delete({
        index: [`${alias}_v*`, `people_api_${process.pid}_${worlds}_v*`],
        ignore_unavailable: true,
        allow_no_indices: true,
      });
      await client.close();
    };
  } else {
    search = createPgSearchIndex(sql);
    people = createPgPeopleIndex(sql);
    target = 'postgres:company_search';
    peopleTarget = 'postgres:people_search';
  }
  let now = options.now;
  const requestLines: string[] = [];
  const ownership = createOwnershipReader(sql);
  const officers = createOfficerStore(sql);
  const webhooks = testWebhookDeps(sql);
  const deps: OperationDeps & { store: PostgresCompanyStore } = {
    store,
    search,
    watchlists: createWatchlistStore(sql),
    ownership,
    officers,
    pdfEstimates: createPdfEstimateStore(sql),
    people,
    webhooks,
    ...(options.queuePdfAccounts ? { pdfRequests: createPdfAccountsWork(sql) } : {}),
  };
  const streams = createStreamLedger(sql);
  const app = buildApp({
    ...deps,
    streams,
    keys,
    clock: () => now,
    log: () => {},
    requestLog: (entry) => requestLines.push(JSON.stringify(entry)),
    // Test worlds make many page views from one address: unlimited unless the test sets a limit.
    web: { anonPerMinute: 1_000_000, ...options.web },
    sessions: createSessionStore(sql),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
  });
  const server = keepConnectionsAlive(app.listen(0, '127.0.0.1'));
  await new Promise<void>((ready) => server.once('listening', ready));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const quiet = { log: () => {}, reportDir: join(dir, 'reports') };
  const reindex = async () => {
    await indexSearch(store, { index: search, target }, { log: () => {} });
    await indexPeople(
      { store, source: createPeopleSource(sql) },
      { index: people, target: peopleTarget },
      { log: () => {} },
    );
  };

  return {
    url,
    sql,
    store,
    keys,
    search,
    people,
    searchEnv,
    pscs: createPscStore(sql),
    ownership,
    streams,
    deps,
    requestLines,
    setNow(next) {
      now = next;
    },
    async issueKey(plan = 'pro') {
      const key = generateApiKey();
      await keys.createKey({ hash: hashApiKey(key), prefix: keyPrefix(key), plan, email: null, clientIp: null });
      return key;
    },
    async loadRegister(companies, snapshotDate, options = {}) {
      const path = join(dir, `BasicCompanyDataAsOneFile-${snapshotDate}.csv`);
      writeRegisterCsv(path, registerCsvRows(companies));
      const alerts = options.detectAlerts
        ? { alerts: { detections: createAlertDetectionStore(sql), store, ownership } }
        : {};
      await loadRegister({ companies: store, journal: store, ...alerts }, [path], { ...quiet, complete: false });
      await reindex();
    },
    async loadAccounts(filings, published) {
      const path = join(dir, `Accounts_Bulk_Data-${published}.zip`);
      await writeZip(
        path,
        Object.fromEntries(
          filings.map((f) => [
            `Prod223_0001_${f.number}_${f.balanceSheetDate.replace(/-/g, '')}.html`,
            Buffer.from(filingHtml(f)),
          ]),
        ),
      );
      await loadAccounts({ filings: store, journal: store }, [path], { ...quiet, workers: 1 });
      await reindex();
    },
    reindex,
    async close() {
      await new Promise<void>((done) => server.close(() => done()));
      await closeSearch();
      await opened.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function ukDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
}

function registerCsvRows(companies: readonly RegisterFixture[]): string[][] {
  return registerRows(companies.length, 1, (row, i) => {
    const c = companies[i]!;
    const set = (column: string, value: string) => {
      row[columnOf(column)] = value;
    };
    set('CompanyNumber', c.number);
    set('CompanyName', c.name);
    set('CompanyStatus', c.status ?? 'Active');
    set('CompanyCategory', c.category ?? 'Private Limited Company');
    set('RegAddress.PostTown', c.postTown ?? 'LEEDS');
    set('IncorporationDate', ukDate(c.incorporated ?? '2015-03-01'));
    set('Accounts.NextDueDate', c.nextDue ? ukDate(c.nextDue) : '');
    // '' leaves it empty: a company that has filed no accounts yet.
    if (c.lastMadeUp !== undefined) set('Accounts.LastMadeUpDate', c.lastMadeUp === '' ? '' : ukDate(c.lastMadeUp));
    set('Mortgages.NumMortCharges', String(c.charges ?? 0));
    set('Mortgages.NumMortOutstanding', String(c.outstanding ?? c.charges ?? 0));
    set('SICCode.SicText_1', c.sic ?? '62020 - Information technology consultancy activities');
    set('DissolutionDate', '');
    if (c.addressLine1 !== undefined) set('RegAddress.AddressLine1', c.addressLine1);
  });
}

/** A small FRS 102 inline XBRL filing with the given figures for the year and, optionally, the year before. */
export function filingHtml(f: FilingFixture): string {
  const end = f.balanceSheetDate;
  const year = Number(end.slice(0, 4));
  const priorEnd = `${year - 1}${end.slice(4)}`;
  const dayAfter = (iso: string) => new Date(Date.parse(iso) + 86_400_000).toISOString().slice(0, 10);
  const start = dayAfter(`${year - 1}${end.slice(4)}`);
  const priorStart = dayAfter(`${year - 2}${end.slice(4)}`);
  const context = (id: string, period: string) =>
    `<xbrli:context id="${id}"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">${f.number}</xbrli:identifier></xbrli:entity><xbrli:period>${period}</xbrli:period></xbrli:context>`;
  const facts = (figures: FigureFixture, instant: string, duration: string) => {
    const money = (concept: string, value: number | undefined, ctx: string, unit = 'GBP') =>
      value === undefined
        ? ''
        : `<p><ix:nonFraction name="core:${concept}" contextRef="${ctx}" unitRef="${unit}" decimals="0"${value < 0 ? ' sign="-"' : ''} format="ixt:num-dot-decimal">${Math.abs(value).toFixed(0)}</ix:nonFraction></p>`;
    return [
      money('NetAssetsLiabilities', figures.netAssets, instant),
      money('Equity', figures.netAssets, instant),
      money('CashBankOnHand', figures.cash, instant),
      money('CurrentAssets', figures.currentAssets, instant),
      money('TotalAssetsLessCurrentLiabilities', figures.totalAssetsLessCurrentLiabilities, instant),
      money('TurnoverRevenue', figures.turnover, duration),
      money('ProfitLoss', figures.profit, duration),
      money('AverageNumberEmployeesDuringPeriod', figures.employees, duration, 'pure'),
    ].join('\n');
  };
  return `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:core="http://xbrl.frc.org.uk/fr/2022-01-01/core" xmlns:bus="http://xbrl.frc.org.uk/cd/2022-01-01/business" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:iso4217="http://www.xbrl.org/2003/iso4217">
<head><title>${f.name}</title></head>
<body><div style="display:none"><ix:header><ix:references><link:schemaRef xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink" xlink:type="simple" xlink:href="https://xbrl.frc.org.uk/FRS-102/2022-01-01/FRS-102-2022-01-01.xsd"/></ix:references><ix:resources>
${context('cy', `<xbrli:instant>${end}</xbrli:instant>`)}${context('cyd', `<xbrli:startDate>${start}</xbrli:startDate><xbrli:endDate>${end}</xbrli:endDate>`)}${context('py', `<xbrli:instant>${priorEnd}</xbrli:instant>`)}${context('pyd', `<xbrli:startDate>${priorStart}</xbrli:startDate><xbrli:endDate>${priorEnd}</xbrli:endDate>`)}
<xbrli:unit id="GBP"><xbrli:measure>iso4217:GBP</xbrli:measure></xbrli:unit><xbrli:unit id="pure"><xbrli:measure>xbrli:pure</xbrli:measure></xbrli:unit></ix:resources></ix:header></div>
<p><ix:nonNumeric name="bus:EntityCurrentLegalOrRegisteredName" contextRef="cyd">${f.name}</ix:nonNumeric></p>
<p><ix:nonNumeric name="bus:UKCompaniesHouseRegisteredNumber" contextRef="cyd">${f.number}</ix:nonNumeric></p>
<p><ix:nonNumeric name="bus:BalanceSheetDate" contextRef="cy">${end}</ix:nonNumeric></p>
${facts(f.current, 'cy', 'cyd')}
${f.prior ? facts(f.prior, 'py', 'pyd') : ''}
</body></html>`;
}

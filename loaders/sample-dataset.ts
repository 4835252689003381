/**
 * The bundled sample dataset: register snapshots, several years of accounts bulk zips and a
 * persons-with-significant-control snapshot for a few thousand synthetic companies, made by the
 * project's generator in the real Companies House formats and loaded through the real loaders. The embedded default loads it on first start so
 * that every endpoint has something to show.
 *
 * It is generated rather than committed: the same seed gives the same files, and the window ends
 * at the current month so that "recent" filings and overdue accounts mean something today.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PscStore } from '../src/ports/ownership.ts';
import type { CompanyWriter } from '../src/ports/companies.ts';
import type { IndexCursor } from '../src/ports/index-cursor.ts';
import type { LoadJournal } from '../src/ports/load-journal.ts';
import type { PdfEstimateWriter } from '../src/ports/pdf-estimates.ts';
import { writeBulkZips } from '../src/synthetic/bulk-zip.ts';
import { syntheticFilings } from '../src/synthetic/filings.ts';
import { syntheticPdfEstimates } from '../src/synthetic/pdf-estimates.ts';
import type { SyntheticFiling } from '../src/synthetic/filings.ts';
import { writePscSnapshot } from '../src/synthetic/psc-files.ts';
import { writeRegisterSnapshot } from '../src/synthetic/register-files.ts';
import { loadAccounts } from './load-accounts.ts';
import { loadPsc } from './load-psc.ts';
import { loadRegister } from './load-register.ts';

const SAMPLE_SEED = 20_260_101;

export interface SampleOptions {
  dataDir: string;
  companies?: number;
  years?: number;
  /** "Today" for the sample: the snapshot is taken on the first of its month. */
  today?: Date;
  log?: (line: string) => void;
}

export interface SampleSummary {
  snapshotDate: string;
  companies: number;
  filings: number;
  /** PSCs and statements of the PSC snapshot (taken on the register's newest snapshot date). */
  pscs: number;
  /** Estimates of the accounts filed on paper, as reading their scans would give them. */
  pdfEstimates: number;
}

export async function loadSampleDataset(
  {
    store,
    pscs,
    pdfEstimates,
  }: { store: CompanyWriter & LoadJournal & Pick<IndexCursor, 'now'>; pscs: PscStore; pdfEstimates: PdfEstimateWriter },
  options: SampleOptions,
): Promise<SampleSummary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const today = options.today ?? new Date();
  const todayIso = today.toISOString().slice(0, 10);
  const snapshotDate = `${todayIso.slice(0, 7)}-01`;
  const years = options.years ?? 5;
  const companies = options.companies ?? 3000;
  const dir = join(options.dataDir, 'sample');
  const accountsDir = join(dir, 'accounts');
  const registerDir = join(dir, 'register');
  const pscDir = join(dir, 'psc', snapshotDate);
  // The register lists more companies than file accounts: some are dormant, young or dissolved.
  const registerCompanies = Math.ceil(companies * 1.25);
  await mkdir(accountsDir, { recursive: true });

  log(`generating the sample dataset (${companies} companies, ${years} years of accounts) in ${dir}`);
  if ((await readdir(accountsDir)).length === 0) {
    const fromYear = today.getUTCFullYear() - years;
    // Through the current year, so the accounts agree with the register's "last made up to".
    const filings = syntheticFilings({ seed: SAMPLE_SEED, companies, yearsPerCompany: years + 1, fromYear });
    await writeBulkZips(publishedBy(filings, todayIso), accountsDir);
  }
  // One snapshot a year across the accounts window, oldest first, as a service running that long
  // would have loaded: each complete snapshot marks the companies that dissolved since the last.
  const snapshots = Array.from(
    { length: years + 1 },
    (_, i) => `${Number(snapshotDate.slice(0, 4)) - years + i}${snapshotDate.slice(4)}`,
  );
  for (const date of snapshots) {
    const outDir = join(registerDir, date);
    await mkdir(outDir, { recursive: true });
    if ((await readdir(outDir)).length === 0) {
      await writeRegisterSnapshot({
        seed: SAMPLE_SEED,
        companies: registerCompanies,
        snapshotDate: date,
        outDir,
      });
    }
  }
  // Who controls the companies on the newest register snapshot: the same seed and companies, so
  // that corporate PSCs resolve to companies on the register.
  await mkdir(pscDir, { recursive: true });
  if ((await readdir(pscDir)).length === 0) {
    await writePscSnapshot({ seed: SAMPLE_SEED, companies: registerCompanies, snapshotDate, outDir: pscDir });
  }
  const reportDir = join(options.dataDir, 'reports');
  let companiesLoaded = 0;
  for (const date of snapshots)
    companiesLoaded = (
      await loadRegister({ companies: store, journal: store }, [join(registerDir, date)], { reportDir, log })
    ).rowsWritten;
  const accounts = await loadAccounts({ filings: store, journal: store }, [accountsDir], { reportDir, log });
  const psc = await loadPsc({ journal: store, pscs }, [pscDir], { reportDir, log });
  // The companies that file on paper have no accounts in the bulk data: their estimates stand for
  // what reading the scans would give (storing one again replaces it, so a second start is safe).
  let estimates = 0;
  for (const estimate of syntheticPdfEstimates({
    seed: SAMPLE_SEED,
    companies: registerCompanies,
    filingCompanies: companies,
    fromYear: today.getUTCFullYear() - years,
    years: years + 1,
    today: todayIso,
  })) {
    await pdfEstimates.savePdfEstimate(estimate);
    estimates++;
  }
  log(`stored ${estimates} estimates of accounts filed on paper`);
  return {
    snapshotDate,
    companies: companiesLoaded,
    filings: accounts.parsed,
    pscs: psc.pscsWritten + psc.statementsWritten,
    pdfEstimates: estimates,
  };
}

function* publishedBy(filings: Iterable<SyntheticFiling>, today: string): Generator<SyntheticFiling> {
  for (const filing of filings) {
    if (filing.published > today) return;
    yield filing;
  }
}

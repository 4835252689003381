/**
 * Synthetic companies: who they are (number, name, incorporation, legal form, size, sector) and
 * which kind of accounts they file. A company is a pure function of (seed, index), so any one of
 * millions can be rebuilt on demand without generating the others.
 */
import { companyName } from './company-names.ts';
import type { LegalForm } from './company-names.ts';
import { issueNumber } from './company-numbers.ts';
import type { Register } from './company-numbers.ts';
import { monthOf, yearOf } from './dates.ts';
import { labelSeed, mixSeed, Random } from './random.ts';

/**
 * How a company files: FRS 105 micro-entity or FRS 102 inline XBRL (2016 on), old UK GAAP 2009
 * inline XBRL (2011–2016), or the plain XBRL of Companies House WebFiling (2008–2013). A company
 * keeps its style within an era and moves on when the era ends (see `styleFor`).
 */
export type AccountsStyle = 'frs105' | 'frs102' | 'ukgaap2009' | 'xbrl-plain';

/** Inline XBRL styles, the ones `renderIxbrlFiling` writes. */
export type IxbrlStyle = Exclude<AccountsStyle, 'xbrl-plain'>;

/** Size under the Companies Act thresholds, which decides what the accounts disclose. */
export type SizeProfile = 'dormant' | 'micro' | 'small' | 'medium' | 'large';

export type Sector = 'services' | 'trade' | 'construction' | 'manufacturing' | 'property' | 'holding';

export interface SyntheticCompany {
  index: number;
  /** Seed of this company's own random streams. */
  seed: number;
  company_number: string;
  name: string;
  legalForm: LegalForm;
  register: Register;
  /** ISO date. */
  incorporated: string;
  accountsStyle: AccountsStyle;
  size: SizeProfile;
  sector: Sector;
  /** Month (1–12) of the accounting reference date; periods end on its last day. */
  referenceMonth: number;
  /** Nominal share capital in pounds; 0 for LLPs. */
  shareCapital: number;
  /** Keeps its books in round thousands (larger companies): every money figure is a multiple of 1000. */
  inThousands: boolean;
  /** Parent of a group that files consolidated accounts. */
  group: boolean;
}

const SIZES: readonly (readonly [SizeProfile, number])[] = [
  ['dormant', 9],
  ['micro', 66],
  ['small', 19],
  ['medium', 4.5],
  ['large', 1.5],
];

const SECTORS: readonly (readonly [Sector, number])[] = [
  ['services', 45],
  ['trade', 15],
  ['construction', 14],
  ['manufacturing', 6],
  ['property', 14],
  ['holding', 6],
];

/** Company `index` of the synthetic register generated from `seed`. */
export function syntheticCompany(seed: number, index: number): SyntheticCompany {
  const companySeed = mixSeed(seed, index, labelSeed('company'));
  const rng = new Random(companySeed);
  const issued = issueNumber(seed, index, rng.int(-10, 10));
  const legalForm0: LegalForm = issued.register === 'llp' ? 'llp' : 'private-limited';

  let size = rng.weighted(SIZES);
  if (legalForm0 === 'llp' && (size === 'medium' || size === 'large')) size = 'small';
  const legalForm: LegalForm =
    legalForm0 === 'private-limited' && size === 'large' && issued.register === 'england-wales' && rng.chance(0.3)
      ? 'plc'
      : legalForm0;
  let sector = rng.weighted(SECTORS);
  if (size === 'dormant' && sector === 'holding') sector = 'services';
  const group = (size === 'medium' || size === 'large') && legalForm !== 'llp' && rng.chance(0.4);
  if (group) sector = 'holding';

  const name = companyName(rng, legalForm, group || sector === 'holding');
  const incorporatedYear = yearOf(issued.incorporated);
  const accountsStyle = homeStyle(rng, size, legalForm, incorporatedYear);
  const referenceMonth = rng.weighted<number>([
    [monthOf(issued.incorporated), 40],
    [3, 22],
    [12, 20],
    [rng.int(1, 12), 18],
  ]);
  const inThousands = size === 'large' ? rng.chance(0.6) : size === 'medium' ? rng.chance(0.15) : false;
  return {
    index,
    seed: companySeed,
    company_number: issued.companyNumber,
    name,
    legalForm,
    register: issued.register,
    incorporated: issued.incorporated,
    accountsStyle,
    size,
    sector,
    referenceMonth,
    shareCapital: shareCapital(rng, legalForm, size, inThousands),
    inThousands,
    group,
  };
}

/** The style a company files in when its own era allows it (see `styleFor`). */
function homeStyle(rng: Random, size: SizeProfile, form: LegalForm, incorporatedYear: number): AccountsStyle {
  const modern: AccountsStyle = size === 'micro' || (size === 'dormant' && rng.chance(0.6)) ? 'frs105' : 'frs102';
  if (incorporatedYear >= 2014) return modern;
  const smallFiler = size === 'dormant' || size === 'micro' || size === 'small';
  return rng.weighted<AccountsStyle>([
    [modern, 45],
    ['ukgaap2009', 30],
    // WebFiling's plain XBRL served small companies filing their own abbreviated accounts.
    ['xbrl-plain', smallFiler && form === 'private-limited' ? 25 : 0],
  ]);
}

function shareCapital(rng: Random, form: LegalForm, size: SizeProfile, inThousands: boolean): number {
  if (form === 'llp') return 0;
  if (inThousands) return rng.pick([1000, 50_000, 100_000, 250_000, 1_000_000]);
  if (form === 'plc') return rng.pick([50_000, 100_000, 500_000]);
  if (size === 'medium' || size === 'large') return rng.pick([100, 1000, 10_000, 100_000]);
  return rng.weighted<number>([
    [1, 14],
    [2, 12],
    [10, 5],
    [100, 45],
    [1000, 20],
    [10_000, 4],
  ]);
}

/** The modern (FRS) style a company moves to from 2016 on. */
function modernStyle(company: SyntheticCompany): 'frs105' | 'frs102' {
  if (company.accountsStyle === 'frs105' || company.accountsStyle === 'frs102') return company.accountsStyle;
  return company.size === 'micro' || company.size === 'dormant' ? 'frs105' : 'frs102';
}

/**
 * The style of the filing for a period ending on `balanceSheetDate`: plain XBRL only for 2008–2013,
 * UK GAAP 2009 inline XBRL for 2011–2016, FRS 102/105 from 2016 on.
 */
export function styleFor(company: SyntheticCompany, balanceSheetDate: string): AccountsStyle {
  const year = yearOf(balanceSheetDate);
  const home = company.accountsStyle;
  if (year >= 2017) return modernStyle(company);
  if (year === 2016) return home === 'frs105' || home === 'frs102' ? home : 'ukgaap2009';
  if (year >= 2014) return 'ukgaap2009';
  if (year >= 2011) return home === 'xbrl-plain' ? 'xbrl-plain' : 'ukgaap2009';
  return 'xbrl-plain';
}

/**
 * Whether the company's accounts for this period would reach the bulk data at all. Nothing before
 * 2008; until 2011 electronic filing was WebFiling's plain XBRL, which only small companies limited
 * by shares used; everyone else filed on paper, which never appears in the accounts bulk product.
 */
export function filesElectronically(company: SyntheticCompany, balanceSheetDate: string): boolean {
  if (yearOf(balanceSheetDate) < 2008) return false;
  if (styleFor(company, balanceSheetDate) !== 'xbrl-plain') return true;
  return (
    company.legalForm === 'private-limited' &&
    (company.size === 'dormant' || company.size === 'micro' || company.size === 'small')
  );
}

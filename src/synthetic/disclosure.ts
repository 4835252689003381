/**
 * Which figures a filing tags, by style: the difference between a company's books and what reaches
 * Companies House. Micro-entity (FRS 105) accounts show totals only, never cash or debtors, and
 * rarely a profit and loss account; FRS 102 small accounts show cash, debtors, creditors by
 * maturity and employees, and larger companies their turnover and profit; old UK GAAP abbreviated
 * accounts and WebFiling plain XBRL sit in between.
 *
 * What a company discloses is a habit of its accountant, so the choices are drawn once per company
 * and style (a stable stream) rather than per year; only rules that changed in law (average
 * employees from 2016) depend on the date.
 */
import type { AccountsStyle, SyntheticCompany } from './companies.ts';
import type { FigureSet } from '../domain/figures.ts';
import { emptyFigures } from '../domain/figures.ts';
import { labelSeed, Random } from './random.ts';

interface Profile {
  netAssets: boolean;
  equity: boolean;
  talcl: boolean;
  cashAndDebtors: boolean;
  cash: boolean;
  debtors: boolean;
  currentAssets: boolean;
  /** Creditors due within one year with their maturity (FRS) or as their own concept (UK GAAP). */
  creditorsWithin: boolean;
  /** Only the undimensioned FRS `Creditors` total, when the maturity breakdown is not tagged. */
  creditorsTotalOnly: boolean;
  afterWhenOwed: boolean;
  afterWhenNil: boolean;
  employees: boolean;
  turnover: boolean;
  profit: boolean;
}

const STYLE_LABELS: Record<AccountsStyle, number> = {
  frs105: labelSeed('disclose:frs105'),
  frs102: labelSeed('disclose:frs102'),
  ukgaap2009: labelSeed('disclose:ukgaap2009'),
  'xbrl-plain': labelSeed('disclose:xbrl-plain'),
};

/** FRS 105 and FRS 102 s1A require average employees for periods starting on or after 1 January 2016. */
const EMPLOYEES_REQUIRED_FROM = '2016-12-31';

/** What a profile's choices depend on beyond its style. */
interface ProfileFacts {
  company: SyntheticCompany;
  dormant: boolean;
  large: boolean;
  employeesRequired: boolean;
}

function profileFor(company: SyntheticCompany, style: AccountsStyle, balanceSheetDate: string): Profile {
  const rng = Random.derive(company.seed, STYLE_LABELS[style]);
  // Every draw happens whatever the outcome, so the stream (and the profile) never shifts.
  const p = (probability: number): boolean => rng.chance(probability);
  return PROFILES[style](p, {
    company,
    dormant: company.size === 'dormant',
    large: company.size === 'medium' || company.size === 'large',
    employeesRequired: balanceSheetDate >= EMPLOYEES_REQUIRED_FROM,
  });
}

/** One profile per style; `p` draws a choice (the order of the fields is the order of the draws). */
const PROFILES: Record<AccountsStyle, (p: (probability: number) => boolean, facts: ProfileFacts) => Profile> = {
  frs105: (p, { company, dormant, employeesRequired }) => {
    const turnover = p(dormant ? 0 : 0.06);
    return {
      netAssets: p(0.95),
      equity: p(company.legalForm === 'llp' ? 0.1 : 0.9),
      talcl: p(dormant ? 0.6 : 0.92),
      cashAndDebtors: false,
      cash: false,
      debtors: false,
      currentAssets: p(dormant ? 0.8 : 0.96),
      creditorsWithin: p(0.9),
      creditorsTotalOnly: p(0.5),
      afterWhenOwed: p(0.92),
      afterWhenNil: p(0.25),
      employees: p(employeesRequired ? (dormant ? 0.6 : 0.9) : 0.1),
      turnover,
      profit: p(turnover ? 0.8 : dormant ? 0 : 0.03),
    };
  },
  frs102: (p, { company, dormant, large, employeesRequired }) => {
    const turnover = p(dormant ? 0 : company.group ? 0 : large ? 0.92 : 0.15);
    return {
      netAssets: p(0.96),
      equity: p(company.legalForm === 'llp' ? 0.05 : 0.8),
      talcl: p(0.9),
      cashAndDebtors: p(dormant ? 0.5 : 0.95),
      cash: p(0.97),
      debtors: p(0.93),
      currentAssets: p(0.96),
      creditorsWithin: p(0.93),
      creditorsTotalOnly: p(0.5),
      afterWhenOwed: p(0.95),
      afterWhenNil: p(0.2),
      employees: p(large ? 1 : employeesRequired ? 0.95 : 0.3),
      turnover,
      profit: p(turnover ? 0.9 : company.group ? 0.3 : dormant ? 0 : 0.12),
    };
  },
  ukgaap2009: (p, { dormant, large }) => {
    const turnover = p(dormant ? 0 : large ? 0.6 : 0.08);
    return {
      netAssets: p(0.93),
      equity: p(0.9),
      talcl: p(0.93),
      cashAndDebtors: p(0.9),
      cash: p(0.92),
      debtors: p(0.85),
      currentAssets: p(0.95),
      creditorsWithin: p(0.95),
      creditorsTotalOnly: false,
      afterWhenOwed: p(0.95),
      afterWhenNil: p(0.15),
      employees: p(large ? 0.5 : 0.06),
      turnover,
      profit: p(turnover ? 0.85 : 0.04),
    };
  },
  'xbrl-plain': (p) => ({
    netAssets: p(0.95),
    equity: p(0.95),
    talcl: p(0.9),
    cashAndDebtors: p(0.92),
    cash: p(0.95),
    debtors: p(0.8),
    currentAssets: p(0.97),
    creditorsWithin: p(0.95),
    creditorsTotalOnly: false,
    afterWhenOwed: p(0.95),
    afterWhenNil: p(0.1),
    employees: p(0.04),
    turnover: false,
    profit: false,
  }),
};

/** One period of a company's books, and the filing style it reaches Companies House in. */
export interface DisclosureInput {
  company: SyntheticCompany;
  style: AccountsStyle;
  balanceSheetDate: string;
  /** The books at the balance sheet date. */
  actual: FigureSet;
  /** The books a year before, when the filing has a prior column. */
  previous: FigureSet | null;
}

/**
 * The figures a filing for this period tags, current and prior, from the books of both periods.
 * The prior column tags the same lines as the current one.
 */
export function discloseFigures({ company, style, balanceSheetDate, actual, previous }: DisclosureInput): {
  current: FigureSet;
  prior: FigureSet | null;
} {
  const profile = profileFor(company, style, balanceSheetDate);
  const owesAfter = (actual.creditors_after_one_year ?? 0) > 0 || (previous?.creditors_after_one_year ?? 0) > 0;
  const owesWithin = (actual.creditors_within_one_year ?? 0) > 0 || (previous?.creditors_within_one_year ?? 0) > 0;
  const dormant = company.size === 'dormant';

  const shown = emptyFigures();
  const keys: Record<keyof FigureSet, boolean> = {
    net_assets: profile.netAssets || !profile.equity,
    equity: profile.equity,
    total_assets_less_current_liabilities: profile.talcl,
    cash: profile.cashAndDebtors && profile.cash,
    current_assets: profile.currentAssets,
    creditors: false,
    creditors_within_one_year: profile.creditorsWithin && (owesWithin || !dormant),
    creditors_after_one_year: owesAfter ? profile.afterWhenOwed : profile.afterWhenNil && !dormant,
    turnover: profile.turnover,
    debtors: profile.cashAndDebtors && profile.debtors,
    employees: profile.employees,
    profit: profile.profit,
  };
  // `creditors` is the undimensioned total, which filers label "due within one year"; the parser
  // falls back to the within-one-year amount, so the two agree whenever either is tagged.
  const totalOnly =
    (style === 'frs105' || style === 'frs102') &&
    !keys.creditors_within_one_year &&
    profile.creditorsTotalOnly &&
    (owesWithin || !dormant);
  keys.creditors = keys.creditors_within_one_year || totalOnly;

  const pick = (source: FigureSet): FigureSet => {
    const out = { ...shown };
    for (const key of Object.keys(keys) as (keyof FigureSet)[]) {
      if (!keys[key]) continue;
      out[key] = key === 'creditors' ? source.creditors_within_one_year : source[key];
    }
    return out;
  };
  return { current: pick(actual), prior: previous ? pick(previous) : null };
}

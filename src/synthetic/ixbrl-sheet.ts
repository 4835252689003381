/**
 * One inline XBRL filing being written: its dialect, contexts, period columns and the helpers every
 * page uses to print a line of amounts (tagged or not), a heading or a page break. The pages
 * themselves live in their own modules and take the sheet.
 */
import { FIGURE_KEYS } from '../domain/figures.ts';
import type { FigureKey } from '../domain/figures.ts';
import { address, officers } from './accounts-text.ts';
import type { Officer } from './accounts-text.ts';
import { addDays, yearOf } from './dates.ts';
import type { FilingInput } from './filing-input.ts';
import { ContextSet } from './ixbrl-contexts.ts';
import type { Dimension, Period } from './ixbrl-contexts.ts';
import { chooseDialect } from './ixbrl-dialect.ts';
import type { Dialect } from './ixbrl-dialect.ts';
import { FactWriter } from './ixbrl-facts.ts';
import { layoutFor } from './ixbrl-layout.ts';
import type { Layout, RowKind } from './ixbrl-layout.ts';
import { escapeXml, printedAmount } from './markup.ts';
import type { Random } from './random.ts';
import { columnOf } from './statement-lines.ts';
import type { Column } from './statement-lines.ts';

const MONEY_KEYS: readonly FigureKey[] = FIGURE_KEYS.filter((key) => key !== 'employees');

/** Whether every amount of the filing is in round thousands, so it can be shown in £'000. */
function inRoundThousands(input: FilingInput): boolean {
  if (input.company.shareCapital % 1000 !== 0) return false;
  let largest = 0;
  for (const figures of [input.current, input.prior]) {
    if (!figures) continue;
    for (const key of MONEY_KEYS) {
      const value = figures[key];
      if (value === null) continue;
      if (value % 1000 !== 0) return false;
      largest = Math.max(largest, Math.abs(value));
    }
  }
  return largest >= 100_000;
}

export type Getter = (column: Column) => number | null;

export interface AmountOptions {
  /** Whether this column's value is a tagged fact; printed only otherwise. Defaults to tagged. */
  tagged?: (column: Column) => boolean;
  dimensions?: readonly Dimension[];
  /** A deduction printed in brackets outside the tag, the value itself positive. */
  deduction?: boolean;
  duration?: boolean;
}

const NO_OPTIONS: AmountOptions = {};

/** The state of one filing being written and the helpers its pages share. */
export class FilingSheet {
  readonly d: Dialect;
  readonly ctx: ContextSet;
  readonly f: FactWriter;
  readonly layout: Layout;
  readonly cur: Column;
  readonly pri: Column | null;
  readonly columns: Column[];
  readonly frs: boolean;
  readonly micro: boolean;
  readonly dormant: boolean;
  readonly unit: number;
  readonly curI: Period;
  readonly curD: Period;
  readonly priI: Period;
  readonly priD: Period;
  readonly people: Officer[];
  readonly office: string[];
  readonly withinDims: Dimension[];
  readonly afterDims: Dimension[];
  /** Tag creditors due within one year on the balance sheet undimensioned, the breakdown in the note. */
  readonly creditorsTotalOnFace: boolean;
  private noteNumber = 0;
  private page = 0;

  constructor(
    readonly input: FilingInput,
    readonly rng: Random,
  ) {
    const { company } = input;
    this.d = chooseDialect(
      {
        style: input.style,
        balanceSheetDate: input.balanceSheetDate,
        companyNumber: company.company_number,
        roundThousands: inRoundThousands(input),
      },
      rng,
    );
    const number = this.d.dropLeadingZeros ? company.company_number.replace(/^0+/, '') : company.company_number;
    this.ctx = new ContextSet(this.d, number);
    this.f = new FactWriter(this.d, this.ctx);
    this.layout = layoutFor(this.d.layout);
    this.frs = input.style !== 'ukgaap2009';
    this.micro = input.style === 'frs105';
    this.dormant = company.size === 'dormant';
    this.unit = this.d.scale === 3 ? 1000 : 1;
    this.cur = columnOf(input.current, company.shareCapital);
    const hasPrior = input.prior !== null && input.priorBalanceSheetDate !== null && input.priorPeriodStart !== null;
    this.pri = hasPrior ? columnOf(input.prior!, company.shareCapital) : null;
    this.columns = this.pri ? [this.cur, this.pri] : [this.cur];
    this.curI = { role: 'current', start: null, end: input.balanceSheetDate };
    this.curD = { role: 'current', start: input.periodStart, end: input.balanceSheetDate };
    this.priI = { role: 'prior', start: null, end: input.priorBalanceSheetDate ?? addDays(input.periodStart, -1) };
    this.priD = {
      role: 'prior',
      start: input.priorPeriodStart ?? addDays(input.periodStart, -365),
      end: input.priorBalanceSheetDate ?? addDays(input.periodStart, -1),
    };
    this.people = officers(rng, company.legalForm === 'llp' ? 2 : rng.int(1, company.size === 'large' ? 6 : 3));
    this.office = address(rng, company);

    const core = this.d.core;
    const maturity = `${core}:MaturitiesOrExpirationPeriodsDimension`;
    const currentness = `${core}:FinancialInstrumentCurrentNon-currentDimension`;
    const breakdown = rng.weighted<'maturity' | 'current' | 'both'>([
      ['maturity', 6],
      ['current', 2.5],
      ['both', 1.5],
    ]);
    this.withinDims = [];
    this.afterDims = [];
    if (breakdown !== 'current') {
      this.withinDims.push({ dimension: maturity, member: `${core}:WithinOneYear` });
      this.afterDims.push({ dimension: maturity, member: `${core}:AfterOneYear` });
    }
    if (breakdown !== 'maturity') {
      this.withinDims.push({ dimension: currentness, member: `${core}:CurrentFinancialInstruments` });
      this.afterDims.push({ dimension: currentness, member: `${core}:Non-currentFinancialInstruments` });
    }
    // Micro-entity accounts have no creditors note, so their face must carry the breakdown.
    this.creditorsTotalOnFace = !this.micro && rng.chance(0.3);
  }

  c(local: string): string {
    return `${this.d.core}:${local}`;
  }

  b(local: string): string {
    return `${this.d.bus}:${local}`;
  }

  r(local: string): string {
    return `${this.d.direp}:${local}`;
  }

  round(x: number): number {
    return Math.round(x / this.unit) * this.unit + 0;
  }

  any(get: Getter, nonZero = false): boolean {
    return this.columns.some((col) => {
      const v = get(col);
      return v !== null && (!nonZero || v !== 0);
    });
  }

  // -------------------------------------------------------------------------------------------
  // Cells and rows

  /** One cell per period column: the amount `value` gives, tagged as `name` unless `tagged` says not. */
  amounts(name: string, value: Getter, spec: AmountOptions = NO_OPTIONS): string[] {
    return this.columns.map((col, i) => {
      const amount = value(col);
      if (amount === null) return '';
      const tagged = spec.tagged ? spec.tagged(col) : true;
      if (!tagged) {
        const shown = printedAmount(amount, this.d.scale);
        return spec.deduction && amount > 0 ? `(${shown})` : shown;
      }
      const instant = i === 0 ? this.curI : this.priI;
      const duration = i === 0 ? this.curD : this.priD;
      const fact = this.f.money(name, spec.duration ? duration : instant, amount, spec.dimensions);
      return spec.deduction && amount > 0 ? `(${fact})` : fact;
    });
  }

  row(label: string, cells: readonly string[], kind: RowKind = 'normal', note = ''): string {
    return this.layout.row(label, note, cells, kind);
  }

  blankRow(label: string, kind: RowKind = 'heading'): string {
    return this.layout.row(
      label,
      '',
      this.columns.map(() => ''),
      kind,
    );
  }

  openTable(unitHeading?: string): string {
    const headings = this.columns.map((col, i) => {
      const date = i === 0 ? this.input.balanceSheetDate : this.priI.end;
      return String(yearOf(date));
    });
    if (headings.length === 2 && headings[0] === headings[1]) {
      headings[0] = this.f.spellDate(this.input.balanceSheetDate);
      headings[1] = this.f.spellDate(this.priI.end);
    }
    return this.layout.tableOpen(headings, unitHeading ?? (this.d.scale === 3 ? "&#163;'000" : '&#163;'));
  }

  nextNote(): string {
    return String(++this.noteNumber);
  }

  pageOpen(): string {
    this.page++;
    return this.layout.pageOpen();
  }

  pageClose(): string {
    const footer = this.rng.chance(0.5)
      ? `Page ${this.page}`
      : `${escapeXml(this.input.company.name)} - Registered number ${this.registeredNumber()} - Page ${this.page}`;
    return this.layout.pageClose(footer);
  }

  registeredNumber(): string {
    const n = this.input.company.company_number;
    return this.d.dropLeadingZeros ? n.replace(/^0+/, '') : n;
  }

  nameFact(): string {
    return this.f.text(this.b('EntityCurrentLegalOrRegisteredName'), this.curD, escapeXml(this.input.company.name));
  }

  numberFact(): string {
    return this.f.text(this.b('UKCompaniesHouseRegisteredNumber'), this.curD, this.registeredNumber());
  }

  periodText(): string {
    const first = this.pri === null && this.input.priorBalanceSheetDate === null;
    const end = this.f.date(this.b('EndDateForPeriodCoveredByReport'), this.curI, this.input.balanceSheetDate);
    if (first && this.rng.chance(0.7)) {
      const start = this.f.date(this.b('StartDateForPeriodCoveredByReport'), this.curD, this.input.periodStart);
      return `for the period from ${start} to ${end}`;
    }
    return `for the year ended ${end}`;
  }

  directorsWord(): string {
    if (this.input.company.legalForm === 'llp') return 'members';
    return this.people.length > 1 ? 'directors' : 'director';
  }

  // -------------------------------------------------------------------------------------------
  // Pages

  /**
   * Creditors due within one year, per column: by maturity, or as the undimensioned total (when
   * that is all that is tagged, or when this place shows the total and another the breakdown).
   */
  withinFacts(totalHere: boolean): string[] {
    return this.columns.map((col, i) => {
      const period = i === 0 ? this.curI : this.priI;
      const value = col.within;
      if (value === null) return '';
      if (!this.frs) {
        return col.figures.creditors_within_one_year !== null
          ? this.f.money(this.c('CreditorsDueWithinOneYear'), period, value)
          : printedAmount(value, this.d.scale);
      }
      const maturity = col.figures.creditors_within_one_year !== null;
      const total = col.figures.creditors !== null;
      if (maturity && !(totalHere && total)) return this.f.money(this.c('Creditors'), period, value, this.withinDims);
      if (total) return this.f.money(this.c('Creditors'), period, value);
      return printedAmount(value, this.d.scale);
    });
  }

  /** The balance sheet line: the amount deducted, in brackets printed outside the tag. */
  withinCells(totalHere: boolean): string[] {
    return this.withinFacts(totalHere).map((fact, i) => ((this.columns[i]!.within ?? 0) > 0 ? `(${fact})` : fact));
  }

  hasEmployees(): boolean {
    return this.any((col) => col.figures.employees);
  }

  employeesConcept(): string {
    return this.frs ? this.c('AverageNumberEmployeesDuringPeriod') : this.c('EmployeesTotal');
  }

  employeeCells(): string[] {
    return this.columns.map((col, i) => {
      const value = col.figures.employees;
      return value === null ? '' : this.f.count(this.employeesConcept(), i === 0 ? this.curD : this.priD, value);
    });
  }
}

/**
 * The profit and loss account, printed when the filing tags its turnover: every line above the
 * profit is derived so that the account adds up to the tagged profit.
 */
import type { RowKind } from './ixbrl-layout.ts';
import { profitAndLoss } from './statement-lines.ts';
import type { ProfitAndLoss } from './statement-lines.ts';
import type { FilingSheet } from './ixbrl-sheet.ts';

/** The concept of each line of the account, in the FRS taxonomies. */
const FRS_CONCEPTS: Record<keyof ProfitAndLoss, string> = {
  turnover: 'TurnoverRevenue',
  costOfSales: 'CostSales',
  grossProfit: 'GrossProfitLoss',
  administrativeExpenses: 'AdministrativeExpenses',
  operatingProfit: 'OperatingProfitLoss',
  interestPayable: 'InterestPayableSimilarChargesFinanceCosts',
  profitBeforeTax: 'ProfitLossOnOrdinaryActivitiesBeforeTax',
  tax: 'TaxTaxCreditOnProfitOrLossOnOrdinaryActivities',
  profit: 'ProfitLoss',
};

/** The concept of each line of the account, in the old UK GAAP taxonomy. */
const UK_GAAP_CONCEPTS: Record<keyof ProfitAndLoss, string> = {
  turnover: 'TurnoverGrossOperatingRevenue',
  costOfSales: 'CostSales',
  grossProfit: 'GrossProfitLoss',
  administrativeExpenses: 'AdministrativeExpenses',
  operatingProfit: 'OperatingProfitLoss',
  interestPayable: 'InterestPayableAndSimilarCharges',
  profitBeforeTax: 'ProfitLossOnOrdinaryActivitiesBeforeTax',
  tax: 'TaxOnProfitOrLossOnOrdinaryActivities',
  profit: 'ProfitLossForPeriod',
};

/** The lines derived between the turnover and the profit, printed when a column has both. */
const DERIVED_LINES: readonly { label: string; figure: keyof ProfitAndLoss; kind: RowKind; deduction: boolean }[] = [
  { label: 'Cost of sales', figure: 'costOfSales', kind: 'normal', deduction: true },
  { label: 'Gross profit', figure: 'grossProfit', kind: 'subtotal', deduction: false },
  { label: 'Administrative expenses', figure: 'administrativeExpenses', kind: 'normal', deduction: true },
  { label: 'Operating profit', figure: 'operatingProfit', kind: 'subtotal', deduction: false },
  { label: 'Interest payable and similar expenses', figure: 'interestPayable', kind: 'normal', deduction: true },
  { label: 'Profit before taxation', figure: 'profitBeforeTax', kind: 'subtotal', deduction: false },
  { label: 'Tax on profit', figure: 'tax', kind: 'normal', deduction: true },
];

/** One line of the account: its label and concept, and its figure in each column. */
interface Line {
  label: string;
  concept: string;
  pick: (index: number) => number | null;
  kind?: RowKind;
  deduction?: boolean;
}

/** The profit and loss account page, current and prior columns. */
export function profitAndLossPage(s: FilingSheet): string {
  const L = s.layout;
  const concepts = s.frs ? FRS_CONCEPTS : UK_GAAP_CONCEPTS;
  let out = s.pageOpen() + L.heading(`Profit and Loss Account ${s.periodText()}`, 2) + s.openTable();
  const accounts = s.columns.map((col) => {
    const t = col.figures.turnover;
    const p = col.figures.profit;
    return t !== null && p !== null ? profitAndLoss(t, p, s.unit, s.rng) : null;
  });
  const line = ({ label, concept, pick, kind = 'normal', deduction = false }: Line) => {
    const cells = s.amounts(s.c(concept), (col) => pick(s.columns.indexOf(col)), {
      duration: true,
      deduction: deduction,
    });
    return s.row(label, cells, kind);
  };
  out += line({ label: 'Turnover', concept: concepts.turnover, pick: (i) => s.columns[i]!.figures.turnover });
  if (accounts.some((a) => a !== null)) {
    for (const { label, figure, kind, deduction } of DERIVED_LINES) {
      out += line({ label, concept: concepts[figure], pick: (i) => accounts[i]?.[figure] ?? null, kind, deduction });
    }
  }
  out += line({
    label: 'Profit for the financial year',
    concept: concepts.profit,
    pick: (i) => s.columns[i]!.figures.profit,
    kind: 'total',
  });
  out += L.tableClose();
  out += L.para('The notes on the following pages form part of these financial statements.');
  return out + s.pageClose();
}

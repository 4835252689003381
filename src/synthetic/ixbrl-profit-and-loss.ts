/**
 * The profit and loss account, printed when the filing tags its turnover: every line above the
 * profit is derived so that the account adds up to the tagged profit.
 */
import type { RowKind } from './ixbrl-layout.ts';
import { profitAndLoss } from './statement-lines.ts';
import type { FilingSheet } from './ixbrl-sheet.ts';

/** The profit and loss account page, current and prior columns. */
export function profitAndLossPage(s: FilingSheet): string {
  const L = s.layout;
  const names = s.frs
    ? {
        turnover: 'TurnoverRevenue',
        cost: 'CostSales',
        gross: 'GrossProfitLoss',
        admin: 'AdministrativeExpenses',
        operating: 'OperatingProfitLoss',
        interest: 'InterestPayableSimilarChargesFinanceCosts',
        pbt: 'ProfitLossOnOrdinaryActivitiesBeforeTax',
        tax: 'TaxTaxCreditOnProfitOrLossOnOrdinaryActivities',
        profit: 'ProfitLoss',
      }
    : {
        turnover: 'TurnoverGrossOperatingRevenue',
        cost: 'CostSales',
        gross: 'GrossProfitLoss',
        admin: 'AdministrativeExpenses',
        operating: 'OperatingProfitLoss',
        interest: 'InterestPayableAndSimilarCharges',
        pbt: 'ProfitLossOnOrdinaryActivitiesBeforeTax',
        tax: 'TaxOnProfitOrLossOnOrdinaryActivities',
        profit: 'ProfitLossForPeriod',
      };
  let out = s.pageOpen() + L.heading(`Profit and Loss Account ${s.periodText()}`, 2) + s.openTable();
  const accounts = s.columns.map((col) => {
    const t = col.figures.turnover;
    const p = col.figures.profit;
    return t !== null && p !== null ? profitAndLoss(t, p, s.unit, s.rng) : null;
  });
  const line = (
    label: string,
    name: string,
    pick: (index: number) => number | null,
    kind: RowKind = 'normal',
    deduction = false,
  ) => {
    const cells = s.amounts(s.c(name), (col) => pick(s.columns.indexOf(col)), {
      duration: true,
      deduction: deduction,
    });
    return s.row(label, cells, kind);
  };
  out += line('Turnover', names.turnover, (i) => s.columns[i]!.figures.turnover);
  if (accounts.some((a) => a !== null)) {
    out += line('Cost of sales', names.cost, (i) => accounts[i]?.costOfSales ?? null, 'normal', true);
    out += line('Gross profit', names.gross, (i) => accounts[i]?.grossProfit ?? null, 'subtotal');
    out += line(
      'Administrative expenses',
      names.admin,
      (i) => accounts[i]?.administrativeExpenses ?? null,
      'normal',
      true,
    );
    out += line('Operating profit', names.operating, (i) => accounts[i]?.operatingProfit ?? null, 'subtotal');
    out += line(
      'Interest payable and similar expenses',
      names.interest,
      (i) => accounts[i]?.interestPayable ?? null,
      'normal',
      true,
    );
    out += line('Profit before taxation', names.pbt, (i) => accounts[i]?.profitBeforeTax ?? null, 'subtotal');
    out += line('Tax on profit', names.tax, (i) => accounts[i]?.tax ?? null, 'normal', true);
  }
  out += line('Profit for the financial year', names.profit, (i) => s.columns[i]!.figures.profit, 'total');
  out += L.tableClose();
  out += L.para('The notes on the following pages form part of these financial statements.');
  return out + s.pageClose();
}

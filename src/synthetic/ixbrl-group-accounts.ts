/**
 * Group accounts: a consolidated profit and loss account and balance sheet whose every fact is on
 * the Consolidated member of the group/company dimension. They must never change the company's
 * own (undimensioned) figures.
 */
import type { Dimension } from './ixbrl-contexts.ts';
import type { FilingSheet } from './ixbrl-sheet.ts';

/** One year of the group's consolidated figures. */
interface GroupColumn {
  fixed: number;
  currentAssets: number;
  within: number;
  talcl: number;
  after: number;
  netAssets: number;
  turnover: number;
  profit: number;
  employees: number;
}

/** Group accounts: the consolidated figures, all on the Consolidated member, never undimensioned. */
export function consolidatedPage(s: FilingSheet): string {
  const L = s.layout;
  const group = [{ dimension: s.b('GroupCompanyDataDimension'), member: s.b('Consolidated') }];
  const columns = groupColumns(s);
  const cells = (name: string, pick: (v: GroupColumn) => number, dims: readonly Dimension[], duration = false) =>
    columns.map((v, i) => {
      const period = duration ? (i === 0 ? s.curD : s.priD) : i === 0 ? s.curI : s.priI;
      return s.f.money(s.c(name), period, pick(v), dims);
    });
  let out = s.pageOpen() + L.heading(`Consolidated Profit and Loss Account ${s.periodText()}`, 2) + s.openTable();
  out += s.row(
    'Turnover',
    cells('TurnoverRevenue', (v) => v.turnover, group, true),
  );
  out += s.row(
    'Profit for the financial year',
    cells('ProfitLoss', (v) => v.profit, group, true),
    'total',
  );
  out += L.tableClose();
  out += L.heading('Consolidated Balance Sheet', 2) + s.openTable();
  out += s.row(
    'Fixed assets',
    cells('FixedAssets', (v) => v.fixed, group),
  );
  out += s.row(
    'Current assets',
    cells('CurrentAssets', (v) => v.currentAssets, group),
  );
  out += s.row(
    'Creditors: amounts falling due within one year',
    cells('Creditors', (v) => v.within, [...group, ...s.withinDims]).map((x) => `(${x})`),
  );
  out += s.row(
    'Total assets less current liabilities',
    cells('TotalAssetsLessCurrentLiabilities', (v) => v.talcl, group),
    'subtotal',
  );
  out += s.row(
    'Creditors: amounts falling due after more than one year',
    cells('Creditors', (v) => v.after, [...group, ...s.afterDims]).map((x) => (x.includes('>-<') ? x : `(${x})`)),
  );
  out += s.row(
    'Net assets',
    cells('NetAssetsLiabilities', (v) => v.netAssets, group),
    'total',
  );
  out += L.tableClose();
  out += L.para(
    `The average number of persons employed by the group during the year was ${columns
      .map((v, i) =>
        s.f.count(s.c('AverageNumberEmployeesDuringPeriod'), i === 0 ? s.curD : s.priD, v.employees, {
          dimensions: group,
        }),
      )
      .join(' (previous year: ')}${columns.length > 1 ? ')' : ''}.`,
  );
  return out + s.pageClose();
}

/** The group's figures for each column, drawn to be a few times the company's own. */
function groupColumns(s: FilingSheet): GroupColumn[] {
  const base = Math.max(Math.abs(s.cur.netAssets ?? 0), Math.abs(s.cur.figures.current_assets ?? 0), 200_000);
  return s.columns.map((_, i) => {
    const growth = i === 0 ? 1 : s.rng.uniform(0.8, 1.05);
    const currentAssets = s.round(base * s.rng.uniform(1.5, 4) * growth);
    const within = s.round(currentAssets * s.rng.uniform(0.4, 0.9));
    const fixed = s.round(base * s.rng.uniform(0.8, 2.5) * growth);
    const after = s.round(fixed * s.rng.uniform(0, 0.4));
    const turnover = s.round(currentAssets * s.rng.uniform(2, 5));
    return {
      fixed,
      currentAssets,
      within,
      talcl: fixed + currentAssets - within,
      after,
      netAssets: fixed + currentAssets - within - after,
      turnover,
      profit: s.round(turnover * s.rng.uniform(-0.03, 0.09)),
      employees: Math.max(50, Math.round(turnover / 120_000)),
    };
  });
}
// -------------------------------------------------------------------------------------------
// Header

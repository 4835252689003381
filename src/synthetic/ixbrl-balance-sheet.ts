/**
 * The balance sheet page: the FRS (105 and 102) and old UK GAAP layouts, with the statements small
 * companies make beneath it and the approval. Figures are tagged exactly when the input files
 * them; derived lines (fixed assets, net current assets, provisions) carry their own concepts.
 */
import { balanceSheetStatements } from './accounts-text.ts';
import { addDays, longDate } from './dates.ts';
import type { Column } from './statement-lines.ts';
import type { FilingSheet } from './ixbrl-sheet.ts';

/** The balance sheet page, with the statements and approval beneath it. */
export function balanceSheetPage(s: FilingSheet): string {
  const L = s.layout;
  const { company } = s.input;
  const bsDate = s.rng.chance(0.6)
    ? s.f.date(s.b('BalanceSheetDate'), s.curI, s.input.balanceSheetDate)
    : longDate(s.input.balanceSheetDate);
  let out =
    s.pageOpen() +
    L.heading(s.nameFact(), 2) +
    L.heading(`Registered number: ${s.numberFact()}`, 3) +
    L.heading(`Balance Sheet as at ${bsDate}`, 2);
  out += s.openTable();
  out += s.frs ? frsBalanceSheetRows(s) : ukGaapBalanceSheetRows(s);
  out += L.tableClose();

  if (s.micro && s.hasEmployees() && s.d.employeesHidden !== 'only') {
    out += s.openTable('Number');
    out += s.row('Average number of employees', s.employeeCells());
    out += L.tableClose();
  }
  const statements = balanceSheetStatements(company, s.micro, s.dormant, s.people.length > 1);
  for (const statement of statements) {
    out += L.para(s.f.text(s.r(statement.concept), s.curD, statement.text));
  }
  const approval = addDays(s.input.balanceSheetDate, s.rng.int(30, 260));
  const approvalConcept = s.frs ? s.c('DateAuthorisationFinancialStatementsForIssue') : s.c('DateApprovalAccounts');
  out += L.para(
    `Approved by the ${company.legalForm === 'llp' ? 'members' : 'board'} on ${s.f.date(approvalConcept, s.curI, approval)} and signed on their behalf by:`,
  );
  const signer = s.people[0]!;
  out += L.para(`${signer.title} ${signer.name}<br/>${company.legalForm === 'llp' ? 'Designated member' : 'Director'}`);
  return out + s.pageClose();
}

/** The FRS 105 and FRS 102 balance sheet, block by block in the order of the page. */
function frsBalanceSheetRows(s: FilingSheet): string {
  return (
    frsFixedAssetRows(s) +
    frsCurrentAssetRows(s) +
    frsCurrentLiabilityRows(s) +
    frsLongTermLiabilityRows(s) +
    frsNetAssetsRow(s) +
    frsEquityRows(s)
  );
}

/** Fixed assets: one line on a micro-entity's sheet, else the kind the sector holds and a subtotal. */
function frsFixedAssetRows(s: FilingSheet): string {
  const { company } = s.input;
  let out = '';
  const fixedConcept =
    company.sector === 'holding'
      ? 'InvestmentsFixedAssets'
      : company.sector === 'property'
        ? 'InvestmentProperty'
        : 'PropertyPlantEquipment';
  if (s.any((col) => col.fixed, true)) {
    if (s.micro) {
      out += s.row(
        'Fixed assets',
        s.amounts(s.c('FixedAssets'), (col) => col.fixed),
      );
    } else {
      out += s.blankRow('Fixed assets');
      const label =
        company.sector === 'holding'
          ? 'Investments'
          : company.sector === 'property'
            ? 'Investment property'
            : 'Tangible assets';
      out += s.row(
        label,
        s.amounts(s.c(fixedConcept), (col) => col.fixed),
        'normal',
        s.nextNote(),
      );
      out += s.row(
        '',
        s.amounts(s.c('FixedAssets'), (col) => col.fixed),
        'subtotal',
      );
    }
  }
  return out;
}

function frsCurrentAssetRows(s: FilingSheet): string {
  // Micro-entity balance sheets show current assets as one line, unless the input files a breakdown.
  const breakdown = s.any((col) => col.figures.cash) || s.any((col) => col.figures.debtors);
  if (!s.micro || breakdown) return currentAssetRows(s, { stock: 'TotalInventories', cash: 'CashBankOnHand' });
  if (!s.any((col) => col.figures.current_assets)) return '';
  return s.row(
    'Current assets',
    s.amounts(s.c('CurrentAssets'), (col) => col.figures.current_assets),
  );
}

/** Creditors within one year, net current assets and total assets less current liabilities. */
function frsCurrentLiabilityRows(s: FilingSheet): string {
  let out = '';
  if (s.any((col) => col.within)) {
    out += s.row(
      'Creditors: amounts falling due within one year',
      s.withinCells(s.creditorsTotalOnFace),
      'normal',
      s.micro ? '' : s.nextNote(),
    );
  }
  if (s.any((col) => col.netCurrent)) {
    const negative = (s.cur.netCurrent ?? 0) < 0;
    out += s.row(
      negative ? 'Net current liabilities' : 'Net current assets',
      s.amounts(s.c('NetCurrentAssetsLiabilities'), (col) => col.netCurrent),
      'subtotal',
    );
  }
  if (s.any((col) => col.figures.total_assets_less_current_liabilities)) {
    out += s.row(
      'Total assets less current liabilities',
      s.amounts(s.c('TotalAssetsLessCurrentLiabilities'), (col) => col.figures.total_assets_less_current_liabilities),
      'subtotal',
    );
  }
  return out;
}

/** Creditors after one year (or one untagged line with the provisions) and the provisions. */
function frsLongTermLiabilityRows(s: FilingSheet): string {
  let out = '';
  if (s.any((col) => col.figures.creditors_after_one_year)) {
    out += s.row(
      'Creditors: amounts falling due after more than one year',
      s.amounts(s.c('Creditors'), (col) => col.figures.creditors_after_one_year, {
        dimensions: s.afterDims,
        deduction: true,
      }),
      'normal',
      s.micro ? '' : s.nextNote(),
    );
  } else if (s.any((col) => col.longTerm, true)) {
    out += s.row(
      'Creditors due after one year and provisions',
      s.amounts('', (col) => col.longTerm, { tagged: () => false, deduction: true }),
    );
  }
  if (s.any((col) => col.provisions, true)) {
    const accruals = s.micro && s.rng.chance(0.4);
    out += s.row(
      accruals ? 'Accruals and deferred income' : 'Provisions for liabilities',
      s.amounts(
        s.c(
          accruals
            ? 'AccruedLiabilitiesNotExpressedWithinCreditorsSubtotal'
            : 'ProvisionsForLiabilitiesBalanceSheetSubtotal',
        ),
        (col) => col.provisions,
        { deduction: true },
      ),
    );
  }
  return out;
}

function frsNetAssetsRow(s: FilingSheet): string {
  if (!s.any((col) => col.netAssets)) return '';
  const llp = s.input.company.legalForm === 'llp';
  const label = llp
    ? 'Net assets attributable to members'
    : (s.cur.netAssets ?? 0) < 0
      ? 'Net liabilities'
      : 'Net assets';
  return s.row(
    label,
    s.amounts(s.c('NetAssetsLiabilities'), (col) => col.netAssets, {
      tagged: (col) => col.figures.net_assets !== null,
    }),
    'total',
  );
}

/** The current assets block, which the taxonomies tag alike but for the stock and cash concepts. */
function currentAssetRows(s: FilingSheet, concepts: { stock: string; cash: string }): string {
  let out = s.blankRow('Current assets');
  if (s.any((col) => col.stock, true)) {
    out += s.row(
      'Stocks',
      s.amounts(s.c(concepts.stock), (col) => col.stock),
    );
  }
  if (s.any((col) => col.figures.debtors)) {
    out += s.row(
      'Debtors',
      s.amounts(s.c('Debtors'), (col) => col.figures.debtors),
      'normal',
      s.nextNote(),
    );
  }
  if (s.any((col) => col.figures.cash)) {
    out += s.row(
      'Cash at bank and in hand',
      s.amounts(s.c(concepts.cash), (col) => col.figures.cash),
    );
  }
  if (s.any((col) => col.figures.current_assets)) {
    out += s.row(
      '',
      s.amounts(s.c('CurrentAssets'), (col) => col.figures.current_assets),
      'subtotal',
    );
  }
  return out;
}

function frsEquityRows(s: FilingSheet): string {
  const { company } = s.input;
  if (!s.any((col) => col.netAssets)) return '';
  const equity = (col: Column) => col.figures.equity ?? col.netAssets;
  const equityTagged = (col: Column) => col.figures.equity !== null;
  if (company.legalForm === 'llp') {
    return (
      s.blankRow('Represented by:') +
      s.row("Members' other interests", s.amounts(s.c('Equity'), equity, { tagged: equityTagged }), 'total')
    );
  }
  if (s.micro && s.rng.chance(0.6)) {
    return s.row('Capital and reserves', s.amounts(s.c('Equity'), equity, { tagged: equityTagged }), 'total');
  }
  const classes = s.c('EquityClassesDimension');
  let out = s.blankRow('Capital and reserves');
  out += s.row(
    'Called up share capital',
    s.amounts(s.c('Equity'), () => company.shareCapital, {
      dimensions: [{ dimension: classes, member: s.c('ShareCapital') }],
    }),
    'normal',
    s.nextNote(),
  );
  out += s.row(
    'Profit and loss account',
    s.amounts(s.c('Equity'), (col) => col.reserves, {
      dimensions: [{ dimension: classes, member: s.c('RetainedEarningsAccumulatedLosses') }],
    }),
  );
  out += s.row(
    s.rng.chance(0.5) ? "Shareholders' funds" : 'Total equity',
    s.amounts(s.c('Equity'), equity, { tagged: equityTagged }),
    'total',
  );
  return out;
}

/** The old UK GAAP balance sheet, block by block in the order of the page. */
function ukGaapBalanceSheetRows(s: FilingSheet): string {
  return (
    ukGaapFixedAssetRows(s) +
    currentAssetRows(s, { stock: 'Stocks', cash: 'CashBankInHand' }) +
    ukGaapLiabilityRows(s) +
    ukGaapCapitalRows(s)
  );
}

function ukGaapFixedAssetRows(s: FilingSheet): string {
  if (!s.any((col) => col.fixed, true)) return '';
  return (
    s.blankRow('Fixed assets') +
    s.row(
      'Tangible assets',
      s.amounts(s.c('TangibleFixedAssets'), (col) => col.fixed),
      'normal',
      s.nextNote(),
    ) +
    s.row(
      '',
      s.amounts(s.c('FixedAssets'), (col) => col.fixed),
      'subtotal',
    )
  );
}

/** Creditors within and after one year, the subtotals between them, and the provisions. */
function ukGaapLiabilityRows(s: FilingSheet): string {
  let out = '';
  if (s.any((col) => col.within)) {
    out += s.row('Creditors: amounts falling due within one year', s.withinCells(false), 'normal', s.nextNote());
  }
  if (s.any((col) => col.netCurrent)) {
    out += s.row(
      'Net current assets (liabilities)',
      s.amounts(s.c('NetCurrentAssetsLiabilities'), (col) => col.netCurrent),
      'subtotal',
    );
  }
  if (s.any((col) => col.figures.total_assets_less_current_liabilities)) {
    out += s.row(
      'Total assets less current liabilities',
      s.amounts(s.c('TotalAssetsLessCurrentLiabilities'), (col) => col.figures.total_assets_less_current_liabilities),
      'subtotal',
    );
  }
  if (s.any((col) => col.figures.creditors_after_one_year)) {
    out += s.row(
      'Creditors: amounts falling due after more than one year',
      s.amounts(s.c('CreditorsDueAfterOneYear'), (col) => col.figures.creditors_after_one_year, {
        deduction: true,
      }),
      'normal',
      s.nextNote(),
    );
  } else if (s.any((col) => col.longTerm, true)) {
    out += s.row(
      'Creditors due after one year and provisions',
      s.amounts('', (col) => col.longTerm, { tagged: () => false, deduction: true }),
    );
  }
  if (s.any((col) => col.provisions, true)) {
    out += s.row(
      'Provisions for liabilities',
      s.amounts(s.c('ProvisionsForLiabilitiesCharges'), (col) => col.provisions, { deduction: true }),
    );
  }
  return out;
}

/** Net assets and the capital and reserves that make them up. */
function ukGaapCapitalRows(s: FilingSheet): string {
  const { company } = s.input;
  let out = '';
  if (s.any((col) => col.netAssets)) {
    out += s.row(
      'Net assets',
      s.amounts(s.c('NetAssetsLiabilitiesIncludingPensionAssetLiability'), (col) => col.netAssets, {
        tagged: (col) => col.figures.net_assets !== null,
      }),
      'total',
    );
    out += s.blankRow('Capital and reserves');
    if (company.legalForm !== 'llp') {
      out += s.row(
        'Called up share capital',
        s.amounts(s.c('CalledUpShareCapital'), () => company.shareCapital),
        'normal',
        s.nextNote(),
      );
    }
    out += s.row(
      'Profit and loss account',
      s.amounts(s.c('ProfitLossAccountReserve'), (col) => col.reserves),
    );
    out += s.row(
      "Shareholders' funds",
      s.amounts(s.c('ShareholderFunds'), (col) => col.figures.equity ?? col.netAssets, {
        tagged: (col) => col.figures.equity !== null,
      }),
      'total',
    );
  }
  return out;
}

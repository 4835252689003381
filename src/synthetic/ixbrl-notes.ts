/**
 * The notes: general information, accounting policies (one continued across a page break, one
 * with a rate nested in its text), employees, fixed assets, debtors, creditors and share capital.
 * Totals in the notes tag the balance sheet figures a second time, consistently.
 */
import { accountingPolicies, generalInformation } from './accounts-text.ts';
import { longDate, yearOf } from './dates.ts';
import type { Period } from './ixbrl-contexts.ts';
import { split } from './statement-lines.ts';
import type { FilingSheet } from './ixbrl-sheet.ts';

/** The notes to the financial statements, from general information to share capital. */
export function notesPages(s: FilingSheet): string {
  const L = s.layout;
  const { company } = s.input;
  let out = s.pageOpen() + L.heading(`Notes to the Financial Statements ${s.periodText()}`, 2);

  out += L.heading(`${s.nextNote()}. General information`, 3);
  out += L.para(generalInformation(company, s.office));

  out += L.heading(`${s.nextNote()}. Accounting policies`, 3);
  const policies = accountingPolicies(company, s.micro, !s.frs);
  const continued = s.rng.chance(0.6) ? policies.length - 1 : -1;
  policies.forEach((policy, i) => {
    out += L.heading(policy.title, 3);
    let text = policy.text;
    if (policy.concept === 'PropertyPlantEquipmentPolicy' && s.frs) {
      // A rate nested in the policy text: a numeric fact inside a text fact.
      const rate = s.rng.pick([10, 15, 20, 25, 33]);
      const dims = [{ dimension: s.c('PropertyPlantEquipmentClassesDimension'), member: s.c('PlantMachinery') }];
      text += ` Plant and machinery: ${s.f.percent(s.c('PropertyPlantEquipmentDepreciationRate'), s.curD, rate, dims)}% ${s.rng.pick(['reducing balance', 'straight line'])}.`;
    }
    if (i === continued) {
      // Split across a page break: the text fact continues in an ix:continuation on the next page.
      const cut = text.indexOf(' ', Math.floor(text.length / 2));
      const continuationId = `cont-${s.rng.int(100, 999)}`;
      out += L.para(
        s.f.text(s.c(policy.concept), s.curD, `${text.slice(0, cut)}<ix:exclude> (continued)</ix:exclude>`, {
          continuedAt: continuationId,
        }),
      );
      out += s.pageClose() + s.pageOpen();
      out += L.para(`<ix:continuation id="${continuationId}">${text.slice(cut)}</ix:continuation>`);
    } else {
      out += L.para(s.f.text(s.c(policy.concept), s.curD, text));
    }
  });

  if (s.hasEmployees() && !s.micro && s.d.employeesHidden !== 'only') {
    out += L.heading(`${s.nextNote()}. Employees`, 3);
    const [current, prior] = s.employeeCells();
    const sentence = `The average number of persons employed by the company (including directors) during the year was ${current}${prior ? ` (${yearOf(s.priI.end)}: ${prior})` : ''}.`;
    out += L.para(
      s.frs && s.rng.chance(0.6) ? s.f.text(s.c('EmployeeInformationFree-textComment'), s.curD, sentence) : sentence,
    );
  }
  if (!s.micro) {
    out += fixedAssetNote(s) + debtorsNote(s) + creditorsNotes(s) + shareCapitalNote(s);
  }
  if (s.any((col) => col.figures.profit) && !s.any((col) => col.figures.turnover)) {
    out += L.heading(`${s.nextNote()}. Profit and loss account`, 3) + s.openTable();
    out += s.row(
      'Profit (loss) for the financial year',
      s.amounts(s.frs ? s.c('ProfitLoss') : s.c('ProfitLossForPeriod'), (col) => col.figures.profit, {
        duration: true,
      }),
      'total',
    );
    out += L.tableClose();
  }
  out += L.heading(`${s.nextNote()}. Related party transactions`, 3);
  out += L.para(
    `During the year the ${s.directorsWord()} advanced and repaid amounts to the company on an interest-free basis with no fixed terms of repayment. There were no other transactions with related parties that require disclosure under ${s.micro ? 'FRS 105' : s.frs ? 'section 1A of FRS 102' : 'the FRSSE'}.`,
  );
  out += L.heading(`${s.nextNote()}. Controlling party`, 3);
  out += L.para(
    company.group
      ? `The company is the parent undertaking of the smallest and largest group for which consolidated financial statements are prepared.`
      : `The company is controlled by its ${s.directorsWord()} by virtue of their shareholdings.`,
  );
  return out + s.pageClose();
}

function fixedAssetNote(s: FilingSheet): string {
  const L = s.layout;
  const nowValue = s.cur.fixed;
  const thenValue = s.pri?.fixed ?? null;
  const tangible = s.input.company.sector !== 'holding' && s.input.company.sector !== 'property';
  if (!tangible || nowValue === null || thenValue === null || (nowValue === 0 && thenValue === 0)) return '';
  const opening = s.round(thenValue * s.rng.uniform(0.3, 1.2));
  const charge = s.round(thenValue * s.rng.uniform(0.1, 0.3));
  const closingDepreciation = opening + charge;
  const openingCost = thenValue + opening;
  const closingCost = nowValue + closingDepreciation;
  const additions = closingCost - openingCost;
  const cost = s.frs ? s.c('PropertyPlantEquipmentGrossCost') : s.c('TangibleFixedAssetsCostOrValuation');
  const depreciation = s.frs
    ? s.c('AccumulatedDepreciationImpairmentPropertyPlantEquipment')
    : s.c('TangibleFixedAssetsDepreciation');
  const chargeName = s.frs
    ? s.c('IncreaseFromDepreciationChargeForYearPropertyPlantEquipment')
    : s.c('TangibleFixedAssetsDepreciationChargedInPeriod');
  const movement = s.frs
    ? s.c(
        additions >= 0
          ? 'AdditionsOtherThanThroughBusinessCombinationsPropertyPlantEquipment'
          : 'DisposalsPropertyPlantEquipment',
      )
    : s.c(additions >= 0 ? 'TangibleFixedAssetsAdditions' : 'TangibleFixedAssetsDisposals');
  const one = (name: string, period: Period, value: number) => [s.f.money(name, period, value)];
  let out =
    L.heading(`${s.nextNote()}. Tangible fixed assets`, 3) +
    L.tableOpen(['Total'], s.d.scale === 3 ? "&#163;'000" : '&#163;');
  out += s.row('Cost or valuation', [''], 'heading');
  out += s.row(`At ${longDate(s.curD.start!)}`, one(cost, s.priI, openingCost));
  out += s.row(additions >= 0 ? 'Additions' : 'Disposals', one(movement, s.curD, Math.abs(additions)));
  out += s.row(`At ${longDate(s.input.balanceSheetDate)}`, one(cost, s.curI, closingCost), 'subtotal');
  out += s.row('Depreciation', [''], 'heading');
  out += s.row(`At ${longDate(s.curD.start!)}`, one(depreciation, s.priI, opening));
  out += s.row('Charge for the year', one(chargeName, s.curD, charge));
  out += s.row(`At ${longDate(s.input.balanceSheetDate)}`, one(depreciation, s.curI, closingDepreciation), 'subtotal');
  out += s.row('Net book value', [''], 'heading');
  const nbv = s.frs ? s.c('PropertyPlantEquipment') : s.c('TangibleFixedAssets');
  out += s.row(`At ${longDate(s.input.balanceSheetDate)}`, one(nbv, s.curI, nowValue), 'total');
  out += s.row(`At ${longDate(s.priI.end)}`, one(nbv, s.priI, thenValue), 'total');
  return out + L.tableClose();
}

function debtorsNote(s: FilingSheet): string {
  if (!s.any((col) => col.figures.debtors)) return '';
  const L = s.layout;
  const parts = s.columns.map((col) =>
    col.figures.debtors === null ? null : split(col.figures.debtors, [0.7, 0.2, 0.1], s.unit),
  );
  const withinDims = s.frs ? s.withinDims.slice(0, 1) : [];
  const item = (label: string, name: string, index: number) =>
    s.row(
      label,
      s.amounts(s.c(name), (col) => parts[s.columns.indexOf(col)]?.[index] ?? null, {
        dimensions: withinDims,
      }),
    );
  let out = L.heading(`${s.nextNote()}. Debtors`, 3) + s.openTable();
  out += item('Trade debtors', s.frs ? 'TradeDebtorsTradeReceivables' : 'TradeDebtors', 0);
  out += item('Other debtors', s.frs ? 'OtherDebtors' : 'OtherDebtors', 1);
  out += item(
    'Prepayments and accrued income',
    s.frs ? 'PrepaymentsAccruedIncome' : 'PrepaymentsAccruedIncomeCurrentAsset',
    2,
  );
  // The total again: undimensioned (the balance sheet figure tagged twice) or within one year.
  const dimensionedTotal = s.frs && s.rng.chance(0.5);
  out += s.row(
    '',
    s.amounts(s.c('Debtors'), (col) => col.figures.debtors, { dimensions: dimensionedTotal ? withinDims : [] }),
    'total',
  );
  return out + L.tableClose();
}

function creditorsNotes(s: FilingSheet): string {
  const L = s.layout;
  let out = '';
  if (s.any((col) => col.within)) {
    const parts = s.columns.map((col) =>
      col.within === null ? null : split(col.within, [0.35, 0.15, 0.2, 0.2, 0.1], s.unit),
    );
    const dims = s.frs ? s.withinDims : [];
    const names = s.frs
      ? [
          'TradeCreditorsTradePayables',
          'BankBorrowingsOverdrafts',
          'TaxationSocialSecurityPayable',
          'OtherCreditors',
          'AccruedLiabilitiesDeferredIncome',
        ]
      : [
          'TradeCreditorsWithinOneYear',
          'BankLoansOverdraftsWithinOneYear',
          'TaxationSocialSecurityWithinOneYear',
          'OtherCreditorsWithinOneYear',
          'AccrualsDeferredIncomeWithinOneYear',
        ];
    const labels = [
      'Trade creditors',
      'Bank loans and overdrafts',
      'Taxation and social security',
      'Other creditors',
      'Accruals and deferred income',
    ];
    out += L.heading(`${s.nextNote()}. Creditors: amounts falling due within one year`, 3) + s.openTable();
    names.forEach((name, index) => {
      out += s.row(
        labels[index]!,
        s.amounts(s.c(name), (col) => parts[s.columns.indexOf(col)]?.[index] ?? null, { dimensions: dims }),
      );
    });
    // The same figure as on the balance sheet, tagged again (the other way round when the face
    // shows the undimensioned total).
    out += s.row('', s.withinFacts(!s.creditorsTotalOnFace), 'total');
    out += L.tableClose();
  }
  if (s.any((col) => col.figures.creditors_after_one_year, true)) {
    const name = s.frs ? s.c('Creditors') : s.c('CreditorsDueAfterOneYear');
    const dims = s.frs ? s.afterDims : [];
    out += L.heading(`${s.nextNote()}. Creditors: amounts falling due after more than one year`, 3) + s.openTable();
    out += s.row(
      'Bank loans',
      s.amounts(
        s.frs ? s.c('BankBorrowings') : s.c('BankLoansAfterOneYear'),
        (col) => col.figures.creditors_after_one_year,
        { dimensions: dims },
      ),
    );
    out += s.row(
      '',
      s.amounts(name, (col) => col.figures.creditors_after_one_year, { dimensions: dims }),
      'total',
    );
    out += L.tableClose();
  }
  return out;
}

function shareCapitalNote(s: FilingSheet): string {
  const { company } = s.input;
  if (company.legalForm === 'llp' || !s.any((col) => col.netAssets)) return '';
  const L = s.layout;
  const shares = company.shareCapital;
  const classDims = [{ dimension: s.c('ShareClassesDimension'), member: s.c('OrdinaryShareClass1') }];
  const count = s.columns.map((_, i) =>
    s.f.count(
      s.frs ? s.c('NumberSharesIssuedFullyPaid') : s.c('NumberSharesAllotted'),
      i === 0 ? s.curI : s.priI,
      shares,
      {
        unit: 'shares',
        dimensions: s.frs ? classDims : [],
      },
    ),
  );
  let out = L.heading(`${s.nextNote()}. Called up share capital`, 3) + s.openTable();
  out += s.row(
    'Allotted, called up and fully paid',
    s.columns.map(() => ''),
    'heading',
  );
  out += s.row(`Ordinary shares of &#163;1 each (number)`, count);
  out += s.row(
    '',
    s.amounts(s.frs ? s.c('Equity') : s.c('ShareCapitalAllottedCalledUpPaid'), () => shares, {
      dimensions: s.frs ? [{ dimension: s.c('EquityClassesDimension'), member: s.c('ShareCapital') }] : [],
    }),
    'total',
  );
  return out + L.tableClose();
}

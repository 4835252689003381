/**
 * Plain XBRL (.xml) accounts in the style of Companies House WebFiling's abbreviated accounts
 * (2008–2013): the uk-gaap-ae-2009-06-21 schema, UK GAAP 2004 "pt" concepts, tuples for names,
 * numbers, policies and share capital, contexts named by year, and an entity identifier that is
 * the company's name rather than its number (the number is a fact of its own).
 */
import type { FigureSet } from '../domain/figures.ts';
import { accountingPolicies } from './accounts-text.ts';
import { addDays, yearOf } from './dates.ts';
import type { PlainFilingInput } from './filing-input.ts';
import { escapeXml } from './markup.ts';
import type { Random } from './random.ts';
import { columnOf, split } from './statement-lines.ts';
import type { Column } from './statement-lines.ts';

const AE = 'http://www.companieshouse.gov.uk/ef/xbrl/uk/fr/gaap/ae/2009-06-21';

interface Writer {
  /** One element per line, or everything on one line as WebFiling writes it. */
  nl: string;
  /** precision="n" (significant digits), decimals="0" or decimals="2". */
  accuracy: 'precision' | 'decimals0' | 'decimals2';
}

function digitsOf(value: number): number {
  return Math.max(1, String(Math.abs(Math.trunc(value))).length);
}

function numeric(w: Writer, name: string, context: string, unit: string, value: number): string {
  let accuracy: string;
  if (w.accuracy === 'precision') accuracy = value === 0 ? 'precision="1"' : `precision="${digitsOf(value)}"`;
  else accuracy = w.accuracy === 'decimals0' ? 'decimals="0"' : 'decimals="2"';
  return `${w.nl}<${name} ${accuracy} contextRef="${context}" unitRef="${unit}">${value}</${name}>`;
}

function text(w: Writer, name: string, context: string, content: string): string {
  return markup(w, name, context, escapeXml(content));
}

/** A text fact whose content is already escaped. */
function markup(w: Writer, name: string, context: string, content: string): string {
  return `${w.nl}<${name} contextRef="${context}">${content}</${name}>`;
}

/** The explanatory notes WebFiling returns carry as free text. */
function freeTextNotes(name: string, dormant: boolean): [string, string][] {
  const notes: [string, string][] = [
    [
      'ae:TransactionsWithDirectorsNote',
      dormant
        ? `The company did not trade during the year and there were no transactions with the directors of ${name}.`
        : `During the year the directors operated a loan account with the company. The account is unsecured, interest free and repayable on demand. The balance owed to the directors at the balance sheet date is included within other creditors falling due within one year. Dividends were paid to the directors in their capacity as shareholders of ${name} during the year.`,
    ],
    [
      'ae:UltimateControllingPartyNote',
      `The company is controlled by its directors, who together own the whole of the issued ordinary share capital of ${name}. There is no single ultimate controlling party.`,
    ],
    [
      'ae:GoingConcernNote',
      'The directors have considered the financial position of the company at the date of approving these accounts, including its cash flow forecasts for a period of not less than twelve months, and the continued support of its bankers and directors. On that basis they consider it appropriate to prepare the financial statements on the going concern basis.',
    ],
    [
      'ae:PostBalanceSheetEventsNote',
      'There have been no significant events affecting the company since the balance sheet date that would require adjustment to, or disclosure in, these financial statements, other than matters arising in the ordinary course of business.',
    ],
    [
      'ae:ContingentLiabilitiesNote',
      'The company had no contingent liabilities or capital commitments at the balance sheet date that were not provided for in these financial statements. No guarantees have been given by the company in respect of the liabilities of any other party.',
    ],
  ];
  return notes;
}

/** Render one plain XBRL filing. Deterministic for the input and the state of `rng`. */
export function renderPlainXbrlFiling(input: PlainFilingInput, rng: Random): string {
  const { company } = input;
  const w: Writer = {
    nl: rng.chance(0.7) ? '' : '\n',
    accuracy: rng.weighted<Writer['accuracy']>([
      ['precision', 5],
      ['decimals0', 3],
      ['decimals2', 1],
    ]),
  };
  const naming = rng.pick(['year', 'number', 'date'] as const);
  const ids = (end: string, index: number) => {
    const tag = naming === 'year' ? String(yearOf(end)) : naming === 'number' ? String(index) : end;
    return { duration: `y${tag}`, instant: `e${tag}`, start: `s${tag}` };
  };
  const cur = ids(input.balanceSheetDate, 1);
  const hasPrior = input.prior !== null && input.priorBalanceSheetDate !== null && input.priorPeriodStart !== null;
  const pri = hasPrior ? ids(input.priorBalanceSheetDate!, 2) : null;
  const curCol = columnOf(input.current, company.shareCapital);
  const priCol = hasPrior ? columnOf(input.prior!, company.shareCapital) : null;
  const dormant = company.size === 'dormant';

  let out = `<?xml version="1.0"${rng.chance(0.5) ? ' encoding="UTF-8"' : ''}?>\n`;
  out += `<?xml-stylesheet type="text/xsl" href="${AE}/stylesheet/CH-AE-stylesheet.xsl"?>\n`;
  out +=
    '<xbrl xmlns="http://www.xbrl.org/2003/instance" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
    ` xmlns:ae="${AE}" xmlns:gc="http://www.xbrl.org/uk/fr/gcd/2004-12-01" xmlns:html="http://www.w3.org/1999/xhtml"` +
    ' xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:link="http://www.xbrl.org/2003/linkbase"' +
    ' xmlns:pt="http://www.xbrl.org/uk/fr/gaap/pt/2004-12-01" xmlns:xbrli="http://www.xbrl.org/2003/instance"' +
    ' xmlns:xlink="http://www.w3.org/1999/xlink">';
  out += `${w.nl}<link:schemaRef xlink:arcrole="http://www.w3.org/1999/xlink/properties/linkbase" xlink:href="${AE}/uk-gaap-ae-2009-06-21.xsd" xlink:type="simple"/>`;
  out += dormant
    ? text(w, 'ae:CompanyDormant', cur.duration, 'true')
    : text(w, 'ae:CompanyNotDormant', cur.duration, 'true');
  out += `${w.nl}<gc:EntityNames>${text(w, 'gc:EntityCurrentLegalName', cur.duration, company.name)}${w.nl}</gc:EntityNames>`;
  out += `${w.nl}<ae:CompanyIdentifyingNumbers>${text(w, 'ae:CompaniesHouseRegisteredNumber', cur.duration, company.company_number)}${w.nl}</ae:CompanyIdentifyingNumbers>`;
  out += `${w.nl}<gc:StatementDatesPeriodsCovered>${text(w, 'gc:BalanceSheetDate', cur.instant, input.balanceSheetDate)}${w.nl}</gc:StatementDatesPeriodsCovered>`;

  const columns: [Column, string][] = [[curCol, cur.instant]];
  if (priCol && pri) columns.push([priCol, pri.instant]);
  const both = (name: string, get: (col: Column) => number | null, always = true) => {
    let s = '';
    for (const [col, context] of columns) {
      const value = get(col);
      if (value !== null && (always || value !== 0)) s += numeric(w, name, context, 'GBP', value);
    }
    return s;
  };
  const f = (key: keyof FigureSet) => (col: Column) => col.figures[key];

  // Capital and reserves first, then the balance sheet upwards, as WebFiling orders them.
  out += both('pt:ProfitLossAccountReserve', (col) => col.reserves);
  out += both('pt:ShareholderFunds', f('equity'));
  out += both('pt:CalledUpShareCapital', (col) => (col.netAssets === null ? null : company.shareCapital));
  out += both('pt:NetAssetsLiabilitiesIncludingPensionAssetLiability', f('net_assets'));
  out += both('pt:ProvisionsForLiabilitiesCharges', (col) => col.provisions, false);
  out += both('pt:CreditorsDueAfterOneYearTotalNoncurrentLiabilities', f('creditors_after_one_year'));
  out += both('pt:TotalAssetsLessCurrentLiabilities', f('total_assets_less_current_liabilities'));
  out += both('pt:NetCurrentAssetsLiabilities', (col) => col.netCurrent);
  out += both('pt:CreditorsDueWithinOneYearTotalCurrentLiabilities', f('creditors_within_one_year'));
  out += both('pt:CurrentAssets', f('current_assets'));
  out += both('pt:Debtors', f('debtors'));
  out += both('pt:StocksInventory', (col) => col.stock, false);
  out += both('pt:CashBankInHand', f('cash'));
  out += both('pt:FixedAssets', (col) => col.fixed, false);
  out += both('pt:TangibleFixedAssets', (col) => col.fixed, false);

  for (const policy of accountingPolicies(company, false, true)) {
    out += `${w.nl}<ae:AccountingPolicy>${text(w, 'ae:TitleAccountingPolicy', cur.duration, policy.title)}${markup(w, 'ae:ContentAccountingPolicy', cur.duration, policy.text)}${w.nl}</ae:AccountingPolicy>`;
  }

  // Tangible fixed assets note: cost and depreciation movements, in the current year's context.
  const fixedNow = curCol.fixed;
  const fixedThen = priCol?.fixed ?? null;
  if (fixedNow !== null && fixedThen !== null && (fixedNow > 0 || fixedThen > 0)) {
    const rate = rng.pick([0.1, 0.15, 0.2, 0.25]);
    out += `${w.nl}<ae:DepreciationRate>${text(w, 'ae:CategoryItem', cur.duration, rng.pick(['Plant and machinery', 'Fixtures & fittings', 'Motor vehicles', 'Computer equipment']))}${text(w, 'ae:TypeDepreciation', cur.duration, 'Reducing balance')}${numeric(w, 'ae:RateDepreciation', cur.duration, 'pure', rate)}${w.nl}</ae:DepreciationRate>`;
    const openingDepreciation = Math.round(fixedThen * rng.uniform(0.3, 1.2));
    const charge = Math.round(fixedThen * rate);
    const closingDepreciation = openingDepreciation + charge;
    const openingCost = fixedThen + openingDepreciation;
    const closingCost = fixedNow + closingDepreciation;
    out += numeric(w, 'pt:TangibleFixedAssetsCostOrValuation', cur.instant, 'GBP', closingCost);
    if (pri) out += numeric(w, 'pt:TangibleFixedAssetsCostOrValuation', pri.instant, 'GBP', openingCost);
    const movement = closingCost - openingCost;
    out += numeric(
      w,
      movement >= 0 ? 'pt:TangibleFixedAssetsAdditions' : 'pt:TangibleFixedAssetsDisposals',
      cur.duration,
      'GBP',
      movement,
    );
    out += numeric(w, 'pt:TangibleFixedAssetsDepreciation', cur.instant, 'GBP', closingDepreciation);
    if (pri) out += numeric(w, 'pt:TangibleFixedAssetsDepreciation', pri.instant, 'GBP', openingDepreciation);
    out += numeric(w, 'pt:TangibleFixedAssetsDepreciationChargeForPeriod', cur.duration, 'GBP', charge);
    out += text(w, 'ae:TangibleAssetsFreeTextNote', cur.instant, '');
  }

  // Creditors note: the amount due within one year that is secured, as WebFiling's form asks.
  const within = curCol.figures.creditors_within_one_year;
  if (within !== null && within > 0 && rng.chance(0.4)) {
    const [secured] = split(within, [0.3, 0.7], 1);
    out += numeric(w, 'ae:SecuredDebtsDueWithinOneYear', cur.instant, 'GBP', secured!);
  }

  // Share capital: par value in the period's duration context, as every WebFiling return has it.
  const shares = company.shareCapital;
  out += `${w.nl}<pt:DetailsOrdinarySharesAllotted>${text(w, 'pt:TypeOrdinaryShare', cur.duration, 'Ordinary')}`;
  out += numeric(w, 'pt:ParValueOrdinaryShare', cur.duration, 'GBP', 1);
  out += numeric(w, 'pt:ValueOrdinarySharesAllotted', cur.instant, 'GBP', shares);
  if (pri) out += numeric(w, 'pt:ValueOrdinarySharesAllotted', pri.instant, 'GBP', shares);
  out += `${w.nl}<pt:NumberOrdinarySharesAllotted precision="INF" contextRef="${cur.instant}" unitRef="shares">${shares}</pt:NumberOrdinarySharesAllotted>`;
  out += `${w.nl}</pt:DetailsOrdinarySharesAllotted>`;
  out += text(w, 'ae:ShareCapitalFreeTextNote', cur.instant, '');

  for (const [index, [col]] of columns.entries()) {
    const employees = col.figures.employees;
    if (employees !== null) {
      out += numeric(w, 'pt:AverageNumberEmployees', index === 0 ? cur.duration : pri!.duration, 'pure', employees);
    }
  }

  for (const [concept, note] of freeTextNotes(company.name, dormant)) out += text(w, concept, cur.duration, note);

  const approved = addDays(input.balanceSheetDate, rng.int(30, 250));
  out += text(w, 'pt:DateApproval', cur.instant, approved);
  out += `${w.nl}<pt:ApprovalDetails>${text(w, 'pt:NameApprovingDirector', cur.duration, `${rng.pick(['A', 'J', 'M', 'P', 'S'])} ${rng.pick(['Smith', 'Patel', 'Jones', 'Khan', 'Taylor', 'Evans'])}`)}${w.nl}</pt:ApprovalDetails>`;
  if (dormant) {
    out += text(w, 'ae:CompanyEntitledToExemptionUnderSection480CompaniesAct2006', cur.duration, 'true');
  } else {
    out += text(w, 'ae:CompanyEntitledToExemptionUnderSection477CompaniesAct2006', cur.duration, 'true');
  }
  out += text(w, 'ae:MembersHaveNotRequiredCompanyToObtainAnAudit', cur.duration, 'true');
  out += text(w, 'ae:DirectorsAcknowledgeTheirResponsibilitiesUnderCompaniesAct', cur.duration, 'true');
  out += text(
    w,
    'ae:AccountsAreInAccordanceWithSpecialProvisionsCompaniesActRelatingToSmallCompanies',
    cur.duration,
    'true',
  );

  out += `${w.nl}<unit id="shares"><measure>xbrli:shares</measure></unit><unit id="GBP"><measure>iso4217:GBP</measure></unit><unit id="pure"><measure>xbrli:pure</measure></unit>`;
  const scheme = `${escapeXml(company.name.slice(0, 20).trim())}/results`;
  const entity = `<entity><identifier scheme="${scheme}">${escapeXml(company.name)}</identifier></entity>`;
  const context = (id: string, period: string) =>
    `${w.nl}<context id="${id}">${entity}<period>${period}</period></context>`;
  const periods: [typeof cur, string, string][] = [[cur, input.periodStart, input.balanceSheetDate]];
  if (pri) periods.push([pri, input.priorPeriodStart!, input.priorBalanceSheetDate!]);
  for (const [id, start, end] of periods) {
    out += context(id.duration, `<startDate>${start}</startDate><endDate>${end}</endDate>`);
    out += context(id.start, `<instant>${addDays(start, -1)}</instant>`);
    out += context(id.instant, `<instant>${end}</instant>`);
  }
  out += text(w, 'ae:CompaniesHouseDocumentAuthentication', cur.duration, '      ');
  out += text(w, 'ae:DateAccountsReceived', cur.instant, addDays(approved, rng.int(1, 40)));
  return `${out}\n</xbrl>\n`;
}

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

/** Writes facts in one filing's style: line breaks or none, and one way of giving accuracy. */
interface Writer {
  /** One element per line, or everything on one line as WebFiling writes it. */
  nl: string;
  /** A monetary fact (unitRef GBP). */
  money(name: string, context: string, value: number): string;
  /** A fact with no unit of money (unitRef pure): a rate, a number of employees. */
  pure(name: string, context: string, value: number): string;
  text(name: string, context: string, content: string): string;
  /** A text fact whose content is already escaped. */
  markup(name: string, context: string, content: string): string;
}

/** precision="n" (significant digits), decimals="0" or decimals="2". */
type Accuracy = 'precision' | 'decimals0' | 'decimals2';

function digitsOf(value: number): number {
  return Math.max(1, String(Math.abs(Math.trunc(value))).length);
}

/** A writer whose style is drawn from `rng` (two draws, always made). */
function drawWriter(rng: Random): Writer {
  const nl = rng.chance(0.7) ? '' : '\n';
  const accuracy = rng.weighted<Accuracy>([
    ['precision', 5],
    ['decimals0', 3],
    ['decimals2', 1],
  ]);
  const numeric = (unit: string) => (name: string, context: string, value: number) => {
    let written: string;
    if (accuracy === 'precision') written = value === 0 ? 'precision="1"' : `precision="${digitsOf(value)}"`;
    else written = accuracy === 'decimals0' ? 'decimals="0"' : 'decimals="2"';
    return `${nl}<${name} ${written} contextRef="${context}" unitRef="${unit}">${value}</${name}>`;
  };
  const markup = (name: string, context: string, content: string) =>
    `${nl}<${name} contextRef="${context}">${content}</${name}>`;
  return {
    nl,
    money: numeric('GBP'),
    pure: numeric('pure'),
    text: (name, context, content) => markup(name, context, escapeXml(content)),
    markup,
  };
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

/** The context ids of one period: its duration, the instant at its end and the day before it starts. */
interface ContextIds {
  duration: string;
  instant: string;
  start: string;
}

/** What the parts of a plain XBRL filing are written from. */
interface PlainFiling {
  input: PlainFilingInput;
  rng: Random;
  w: Writer;
  cur: ContextIds;
  /** The prior period's contexts, when the filing has one. */
  pri: ContextIds | null;
  curCol: Column;
  priCol: Column | null;
  dormant: boolean;
}

/** Render one plain XBRL filing. Deterministic for the input and the state of `rng`. */
export function renderPlainXbrlFiling(input: PlainFilingInput, rng: Random): string {
  const filing = plainFiling(input, rng);
  // The order of the parts is the order of the draws from `rng`: it must not change.
  return (
    `${header(filing)}${balanceSheetFacts(filing)}${policies(filing)}${tangibleFixedAssetsNote(filing)}` +
    `${securedCreditors(filing)}${shareCapital(filing)}${employees(filing)}` +
    `${approvalAndStatements(filing)}\n</xbrl>\n`
  );
}

function plainFiling(input: PlainFilingInput, rng: Random): PlainFiling {
  const { company } = input;
  const w = drawWriter(rng);
  const naming = rng.pick(['year', 'number', 'date'] as const);
  const ids = (end: string, index: number): ContextIds => {
    const tag = naming === 'year' ? String(yearOf(end)) : naming === 'number' ? String(index) : end;
    return { duration: `y${tag}`, instant: `e${tag}`, start: `s${tag}` };
  };
  const hasPrior = input.prior !== null && input.priorBalanceSheetDate !== null && input.priorPeriodStart !== null;
  return {
    input,
    rng,
    w,
    cur: ids(input.balanceSheetDate, 1),
    pri: hasPrior ? ids(input.priorBalanceSheetDate!, 2) : null,
    curCol: columnOf(input.current, company.shareCapital),
    priCol: hasPrior ? columnOf(input.prior!, company.shareCapital) : null,
    dormant: company.size === 'dormant',
  };
}

/** The XML declaration, the root element and the facts naming the company and its balance sheet date. */
function header({ input, rng, w, cur, dormant }: PlainFiling): string {
  const { company } = input;
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
    ? w.text('ae:CompanyDormant', cur.duration, 'true')
    : w.text('ae:CompanyNotDormant', cur.duration, 'true');
  out += `${w.nl}<gc:EntityNames>${w.text('gc:EntityCurrentLegalName', cur.duration, company.name)}${w.nl}</gc:EntityNames>`;
  out += `${w.nl}<ae:CompanyIdentifyingNumbers>${w.text('ae:CompaniesHouseRegisteredNumber', cur.duration, company.company_number)}${w.nl}</ae:CompanyIdentifyingNumbers>`;
  out += `${w.nl}<gc:StatementDatesPeriodsCovered>${w.text('gc:BalanceSheetDate', cur.instant, input.balanceSheetDate)}${w.nl}</gc:StatementDatesPeriodsCovered>`;
  return out;
}

/** Each column with its instant context: the current year's, and the prior year's when filed. */
function columns({ cur, pri, curCol, priCol }: PlainFiling): [Column, string][] {
  const list: [Column, string][] = [[curCol, cur.instant]];
  if (priCol && pri) list.push([priCol, pri.instant]);
  return list;
}

/** The balance sheet's figures, capital and reserves first and then upwards, as WebFiling orders them. */
function balanceSheetFacts(filing: PlainFiling): string {
  const { company } = filing.input;
  const both = (name: string, get: (col: Column) => number | null, always = true) => {
    let s = '';
    for (const [col, context] of columns(filing)) {
      const value = get(col);
      if (value !== null && (always || value !== 0)) s += filing.w.money(name, context, value);
    }
    return s;
  };
  const f = (key: keyof FigureSet) => (col: Column) => col.figures[key];
  return (
    both('pt:ProfitLossAccountReserve', (col) => col.reserves) +
    both('pt:ShareholderFunds', f('equity')) +
    both('pt:CalledUpShareCapital', (col) => (col.netAssets === null ? null : company.shareCapital)) +
    both('pt:NetAssetsLiabilitiesIncludingPensionAssetLiability', f('net_assets')) +
    both('pt:ProvisionsForLiabilitiesCharges', (col) => col.provisions, false) +
    both('pt:CreditorsDueAfterOneYearTotalNoncurrentLiabilities', f('creditors_after_one_year')) +
    both('pt:TotalAssetsLessCurrentLiabilities', f('total_assets_less_current_liabilities')) +
    both('pt:NetCurrentAssetsLiabilities', (col) => col.netCurrent) +
    both('pt:CreditorsDueWithinOneYearTotalCurrentLiabilities', f('creditors_within_one_year')) +
    both('pt:CurrentAssets', f('current_assets')) +
    both('pt:Debtors', f('debtors')) +
    both('pt:StocksInventory', (col) => col.stock, false) +
    both('pt:CashBankInHand', f('cash')) +
    both('pt:FixedAssets', (col) => col.fixed, false) +
    both('pt:TangibleFixedAssets', (col) => col.fixed, false)
  );
}

function policies({ input, w, cur }: PlainFiling): string {
  let out = '';
  for (const policy of accountingPolicies(input.company, false, true)) {
    out += `${w.nl}<ae:AccountingPolicy>${w.text('ae:TitleAccountingPolicy', cur.duration, policy.title)}${w.markup('ae:ContentAccountingPolicy', cur.duration, policy.text)}${w.nl}</ae:AccountingPolicy>`;
  }
  return out;
}

/** Tangible fixed assets note: cost and depreciation movements, in the current year's context. */
function tangibleFixedAssetsNote({ rng, w, cur, pri, curCol, priCol }: PlainFiling): string {
  const fixedNow = curCol.fixed;
  const fixedThen = priCol?.fixed ?? null;
  if (fixedNow === null || fixedThen === null || !(fixedNow > 0 || fixedThen > 0)) return '';
  const rate = rng.pick([0.1, 0.15, 0.2, 0.25]);
  let out = `${w.nl}<ae:DepreciationRate>${w.text('ae:CategoryItem', cur.duration, rng.pick(['Plant and machinery', 'Fixtures & fittings', 'Motor vehicles', 'Computer equipment']))}${w.text('ae:TypeDepreciation', cur.duration, 'Reducing balance')}${w.pure('ae:RateDepreciation', cur.duration, rate)}${w.nl}</ae:DepreciationRate>`;
  const openingDepreciation = Math.round(fixedThen * rng.uniform(0.3, 1.2));
  const charge = Math.round(fixedThen * rate);
  const closingDepreciation = openingDepreciation + charge;
  const openingCost = fixedThen + openingDepreciation;
  const closingCost = fixedNow + closingDepreciation;
  out += w.money('pt:TangibleFixedAssetsCostOrValuation', cur.instant, closingCost);
  if (pri) out += w.money('pt:TangibleFixedAssetsCostOrValuation', pri.instant, openingCost);
  const movement = closingCost - openingCost;
  out += w.money(
    movement >= 0 ? 'pt:TangibleFixedAssetsAdditions' : 'pt:TangibleFixedAssetsDisposals',
    cur.duration,
    movement,
  );
  out += w.money('pt:TangibleFixedAssetsDepreciation', cur.instant, closingDepreciation);
  if (pri) out += w.money('pt:TangibleFixedAssetsDepreciation', pri.instant, openingDepreciation);
  out += w.money('pt:TangibleFixedAssetsDepreciationChargeForPeriod', cur.duration, charge);
  out += w.text('ae:TangibleAssetsFreeTextNote', cur.instant, '');
  return out;
}

/** Creditors note: the amount due within one year that is secured, as WebFiling's form asks. */
function securedCreditors({ rng, w, cur, curCol }: PlainFiling): string {
  const within = curCol.figures.creditors_within_one_year;
  if (within === null || within <= 0 || !rng.chance(0.4)) return '';
  const [secured] = split(within, [0.3, 0.7], 1);
  return w.money('ae:SecuredDebtsDueWithinOneYear', cur.instant, secured!);
}

/** Share capital: par value in the period's duration context, as every WebFiling return has it. */
function shareCapital({ input, w, cur, pri }: PlainFiling): string {
  const shares = input.company.shareCapital;
  let out = `${w.nl}<pt:DetailsOrdinarySharesAllotted>${w.text('pt:TypeOrdinaryShare', cur.duration, 'Ordinary')}`;
  out += w.money('pt:ParValueOrdinaryShare', cur.duration, 1);
  out += w.money('pt:ValueOrdinarySharesAllotted', cur.instant, shares);
  if (pri) out += w.money('pt:ValueOrdinarySharesAllotted', pri.instant, shares);
  out += `${w.nl}<pt:NumberOrdinarySharesAllotted precision="INF" contextRef="${cur.instant}" unitRef="shares">${shares}</pt:NumberOrdinarySharesAllotted>`;
  out += `${w.nl}</pt:DetailsOrdinarySharesAllotted>`;
  out += w.text('ae:ShareCapitalFreeTextNote', cur.instant, '');
  return out;
}

function employees(filing: PlainFiling): string {
  const { w, cur, pri } = filing;
  let out = '';
  for (const [index, [col]] of columns(filing).entries()) {
    const count = col.figures.employees;
    if (count !== null) out += w.pure('pt:AverageNumberEmployees', index === 0 ? cur.duration : pri!.duration, count);
  }
  return out;
}

/** The free-text notes, the approval, the statements small companies make, the units and the contexts. */
function approvalAndStatements(filing: PlainFiling): string {
  const { input, rng, w, cur, dormant } = filing;
  const { company } = input;
  let out = '';
  for (const [concept, note] of freeTextNotes(company.name, dormant)) out += w.text(concept, cur.duration, note);
  const approved = addDays(input.balanceSheetDate, rng.int(30, 250));
  out += w.text('pt:DateApproval', cur.instant, approved);
  out += `${w.nl}<pt:ApprovalDetails>${w.text('pt:NameApprovingDirector', cur.duration, `${rng.pick(['A', 'J', 'M', 'P', 'S'])} ${rng.pick(['Smith', 'Patel', 'Jones', 'Khan', 'Taylor', 'Evans'])}`)}${w.nl}</pt:ApprovalDetails>`;
  if (dormant) {
    out += w.text('ae:CompanyEntitledToExemptionUnderSection480CompaniesAct2006', cur.duration, 'true');
  } else {
    out += w.text('ae:CompanyEntitledToExemptionUnderSection477CompaniesAct2006', cur.duration, 'true');
  }
  out += w.text('ae:MembersHaveNotRequiredCompanyToObtainAnAudit', cur.duration, 'true');
  out += w.text('ae:DirectorsAcknowledgeTheirResponsibilitiesUnderCompaniesAct', cur.duration, 'true');
  out += w.text(
    'ae:AccountsAreInAccordanceWithSpecialProvisionsCompaniesActRelatingToSmallCompanies',
    cur.duration,
    'true',
  );
  out += contexts(filing);
  out += w.text('ae:CompaniesHouseDocumentAuthentication', cur.duration, '      ');
  out += w.text('ae:DateAccountsReceived', cur.instant, addDays(approved, rng.int(1, 40)));
  return out;
}

/** The units, then each period's duration, opening and closing contexts. */
function contexts({ input, w, cur, pri }: PlainFiling): string {
  const { company } = input;
  let out = `${w.nl}<unit id="shares"><measure>xbrli:shares</measure></unit><unit id="GBP"><measure>iso4217:GBP</measure></unit><unit id="pure"><measure>xbrli:pure</measure></unit>`;
  const scheme = `${escapeXml(company.name.slice(0, 20).trim())}/results`;
  const entity = `<entity><identifier scheme="${scheme}">${escapeXml(company.name)}</identifier></entity>`;
  const context = (id: string, period: string) =>
    `${w.nl}<context id="${id}">${entity}<period>${period}</period></context>`;
  const periods: [ContextIds, string, string][] = [[cur, input.periodStart, input.balanceSheetDate]];
  if (pri) periods.push([pri, input.priorPeriodStart!, input.priorBalanceSheetDate!]);
  for (const [id, start, end] of periods) {
    out += context(id.duration, `<startDate>${start}</startDate><endDate>${end}</endDate>`);
    out += context(id.start, `<instant>${addDays(start, -1)}</instant>`);
    out += context(id.instant, `<instant>${end}</instant>`);
  }
  return out;
}

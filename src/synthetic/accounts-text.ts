/**
 * The prose of small-company accounts: directors' statements, accountants' reports, accounting
 * policies, general information. Written for this generator in the register UK accounts use, so
 * generated filings have realistic text bulk around their figures.
 *
 * Every text is returned ready for XML element content (names and addresses escaped), so writers
 * can place it without escaping kilobytes of boilerplate again for each filing.
 */
import type { SyntheticCompany } from './companies.ts';
import { escapeXml } from './markup.ts';
import type { Random } from './random.ts';

export interface Officer {
  title: string;
  name: string;
}

const GIVEN_INITIALS = 'ABCDEGHJKLMNPRSTW';
const OFFICER_SURNAMES = [
  'Ahmed',
  'Baker',
  'Campbell',
  'Davies',
  'Evans',
  'Fletcher',
  'Green',
  'Harrison',
  'Iqbal',
  'Jenkins',
  'Khan',
  'Lewis',
  'Morgan',
  'Nowak',
  'Owen',
  'Patel',
  'Quinn',
  'Roberts',
  'Stewart',
  'Thompson',
  'Underwood',
  'Vaughan',
  'Walker',
  'Young',
];
const TOWNS: Record<'england-wales' | 'scotland' | 'northern-ireland', readonly (readonly [string, string])[]> = {
  'england-wales': [
    ['Leeds', 'LS1'],
    ['Bristol', 'BS1'],
    ['Manchester', 'M2'],
    ['Birmingham', 'B3'],
    ['Norwich', 'NR2'],
    ['Exeter', 'EX1'],
    ['Cardiff', 'CF10'],
    ['Swansea', 'SA1'],
    ['York', 'YO1'],
    ['Reading', 'RG1'],
    ['Canterbury', 'CT1'],
    ['Chester', 'CH1'],
    ['Lincoln', 'LN1'],
  ],
  scotland: [
    ['Glasgow', 'G2'],
    ['Edinburgh', 'EH2'],
    ['Aberdeen', 'AB10'],
  ],
  'northern-ireland': [
    ['Belfast', 'BT1'],
    ['Derry', 'BT48'],
  ],
};
const STREETS = [
  'High Street',
  'Station Road',
  'Church Lane',
  'Market Place',
  'Mill Lane',
  'Victoria Road',
  'Park Road',
];
const BUILDINGS = ['Unit 4', 'Suite 2', 'The Old Bakehouse', 'First Floor', 'Riverside House', '12', '47', '3A'];

/** `count` directors (or members) with a title and an initial and surname, as accounts print them. */
export function officers(rng: Random, count: number): Officer[] {
  const out: Officer[] = [];
  for (let i = 0; i < count; i++) {
    const initial = GIVEN_INITIALS[rng.int(0, GIVEN_INITIALS.length - 1)];
    out.push({
      title: rng.pick(['Mr', 'Mrs', 'Ms', 'Dr', 'Mr', 'Miss']),
      name: `${initial} ${rng.pick(OFFICER_SURNAMES)}`,
    });
  }
  return out;
}

/** A registered office in the company's part of the UK: street line, town, postcode. */
export function address(rng: Random, company: SyntheticCompany): string[] {
  const region = company.register === 'llp' ? 'england-wales' : company.register;
  const [town, district] = rng.pick(TOWNS[region]);
  const postcode = `${district} ${rng.int(1, 9)}${rng.pick(['AB', 'DF', 'GH', 'JL', 'NP', 'RT', 'UW', 'XY'])}`;
  return [`${rng.pick(BUILDINGS)} ${rng.pick(STREETS)}`, town, postcode];
}

/** The jurisdiction as accounts name it, from the register the number belongs to. */
export function countryOfIncorporation(company: SyntheticCompany): string {
  return company.register === 'scotland'
    ? 'Scotland'
    : company.register === 'northern-ireland'
      ? 'Northern Ireland'
      : 'England and Wales';
}

export interface Statement {
  /** Local name of the direp concept that tags the statement. */
  concept: string;
  text: string;
}

/** The statements on the balance sheet page that small companies must make, by framework. */
export function balanceSheetStatements(
  company: SyntheticCompany,
  micro: boolean,
  dormant: boolean,
  plural: boolean,
): Statement[] {
  const directors = company.legalForm === 'llp' ? 'members' : plural ? 'directors' : 'director';
  const entity = company.legalForm === 'llp' ? 'LLP' : 'company';
  const out: Statement[] = [];
  if (dormant) {
    out.push({
      concept:
        'StatementThatCompanyEntitledToExemptionFromAuditUnderSection480CompaniesAct2006RelatingToDormantCompanies',
      text: `For the year ending on the balance sheet date the ${entity} was entitled to exemption from audit under section 480 of the Companies Act 2006 relating to dormant companies.`,
    });
  } else {
    out.push({
      concept:
        'StatementThatCompanyEntitledToExemptionFromAuditUnderSection477CompaniesAct2006RelatingToSmallCompanies',
      text: `For the year ending on the balance sheet date the ${entity} was entitled to exemption from audit under section 477 of the Companies Act 2006 relating to small companies.`,
    });
  }
  out.push(
    {
      concept: 'StatementThatMembersHaveNotRequiredCompanyToObtainAnAudit',
      text: `The members have not required the ${entity} to obtain an audit of its accounts for the year in question in accordance with section 476 of the Companies Act 2006.`,
    },
    {
      concept: 'StatementThatDirectorsAcknowledgeTheirResponsibilitiesUnderCompaniesAct',
      text: `The ${directors} acknowledge their responsibilities for complying with the requirements of the Act with respect to accounting records and the preparation of accounts.`,
    },
    {
      concept: 'StatementThatAccountsHaveBeenPreparedInAccordanceWithProvisionsSmallCompaniesRegime',
      text: micro
        ? 'These accounts have been prepared in accordance with the micro-entity provisions of the Companies Act 2006 and FRS 105, the Financial Reporting Standard applicable to the Micro-entities Regime, and delivered in accordance with the provisions applicable to companies subject to the small companies regime.'
        : 'These financial statements have been prepared and delivered in accordance with the provisions applicable to companies subject to the small companies regime and in accordance with section 1A of FRS 102, The Financial Reporting Standard applicable in the UK and Republic of Ireland.',
    },
  );
  if (!micro && !dormant) {
    out.push({
      concept: 'StatementThatCompanyHasElectedNotToDeliverProfitAndLossAccount',
      text: `In accordance with section 444 of the Companies Act 2006 the profit and loss account has not been delivered to the Registrar of Companies, and the ${directors} have elected not to deliver a copy of the directors' report.`,
    });
  }
  return out;
}

/** The chartered accountants' report on unaudited accounts, as one paragraph per entry. */
export function accountantsReport(company: SyntheticCompany, firmName: string, periodText: string): string[] {
  const board = company.legalForm === 'llp' ? 'members' : 'board of directors';
  const name = escapeXml(company.name);
  const firm = escapeXml(firmName);
  return [
    `In order to assist you to fulfil your duties under the Companies Act 2006, we have prepared for your approval the financial statements of ${name} for the ${periodText} which comprise the balance sheet and the related notes from the company's accounting records and from information and explanations you have given us.`,
    'As a practising member firm of the Institute of Chartered Accountants in England and Wales, we are subject to its ethical and other professional requirements which are detailed in the guidance issued by the Institute on the preparation of unaudited financial statements.',
    `This report is made solely to the ${board} of ${name}, as a body, in accordance with the terms of our engagement letter. Our work has been undertaken solely to prepare for your approval the financial statements and state those matters that we have agreed to state to you in this report, in accordance with the technical guidance of the Institute. To the fullest extent permitted by law, we do not accept or assume responsibility to anyone other than the company and its ${board} as a body for our work or for this report.`,
    `It is your duty to ensure that ${name} has kept adequate accounting records and to prepare statutory financial statements that give a true and fair view of the assets, liabilities, financial position and results of the company. You consider that the company is exempt from the statutory audit requirement for the year.`,
    `We have not been instructed to carry out an audit or a review of the financial statements of ${name}. For this reason, we have not verified the accuracy or completeness of the accounting records or information and explanations you have given to us and we do not, therefore, express any opinion on the statutory financial statements.`,
    `${firm}, Chartered Accountants`,
  ];
}

export interface Policy {
  title: string;
  concept: string;
  text: string;
}

/** Accounting policies a small company would state; `micro` ones are the few FRS 105 needs. */
export function accountingPolicies(company: SyntheticCompany, micro: boolean, ukgaap: boolean): Policy[] {
  const framework = ukgaap
    ? 'the Financial Reporting Standard for Smaller Entities (effective January 2015)'
    : micro
      ? 'FRS 105 The Financial Reporting Standard applicable to the Micro-entities Regime'
      : 'section 1A of FRS 102 The Financial Reporting Standard applicable in the UK and Republic of Ireland';
  const policies: Policy[] = [
    {
      title: 'Basis of preparation',
      concept: 'GeneralDescriptionBasisMeasurementUsedInPreparingFinancialStatements',
      text: `The financial statements have been prepared under the historical cost convention, modified where applicable by the revaluation of certain assets, and in accordance with ${framework} and the Companies Act 2006. The financial statements are presented in sterling, which is the functional currency of the company, and are rounded to the nearest pound unless stated otherwise. The principal accounting policies adopted in the preparation of the financial statements are set out below and have been applied consistently to all years presented.`,
    },
    {
      title: 'Going concern',
      concept: 'StatementOnGoingConcernBasisPreparationFinancialStatements',
      text: `After reviewing the company's forecasts and projections, the ${company.legalForm === 'llp' ? 'members have' : 'directors have'} a reasonable expectation that the company has adequate resources to continue in operational existence for the foreseeable future, being a period of at least twelve months from the date on which these financial statements were approved. The company therefore continues to adopt the going concern basis in preparing its financial statements.`,
    },
    {
      title: 'Turnover',
      concept: 'RevenueRecognitionPolicy',
      text: 'Turnover is measured at the fair value of the consideration received or receivable, net of discounts and value added tax. Revenue from the sale of goods is recognised when the significant risks and rewards of ownership have passed to the buyer; revenue from services is recognised by reference to the stage of completion of the contract at the reporting date, where the outcome can be estimated reliably.',
    },
    {
      title: 'Tangible fixed assets',
      concept: 'PropertyPlantEquipmentPolicy',
      text: 'Tangible fixed assets are stated at cost less accumulated depreciation and any accumulated impairment losses. Depreciation is provided at rates calculated to write off the cost of each asset, less its estimated residual value, over its expected useful life, on the reducing balance or straight line basis as stated below. The gain or loss arising on the disposal of an asset is the difference between the sale proceeds and the carrying amount, and is recognised in profit or loss.',
    },
  ];
  if (micro) return policies.slice(0, 2);
  policies.push(
    {
      title: 'Financial instruments',
      concept: 'FinancialInstrumentsRecognitionMeasurementPolicy',
      text: 'The company has elected to apply the provisions of Section 11 Basic Financial Instruments and Section 12 Other Financial Instruments Issues of FRS 102 to all of its financial instruments. Basic financial assets, including trade and other debtors and cash and bank balances, are initially recognised at transaction price and subsequently carried at amortised cost using the effective interest method, less any impairment. Basic financial liabilities, including trade and other creditors and bank loans, are initially recognised at transaction price and subsequently carried at amortised cost.',
    },
    {
      title: 'Taxation',
      concept: 'TaxPolicy',
      text: 'The tax expense for the period comprises current and deferred tax. Current tax is the amount of corporation tax payable in respect of the taxable profit for the year or prior years, calculated using the tax rates enacted or substantively enacted at the reporting date. Deferred tax is recognised in respect of all timing differences that have originated but not reversed at the reporting date, except as otherwise required by the standard.',
    },
    {
      title: 'Leases',
      concept: 'LeasesPolicy',
      text: 'Rentals payable under operating leases are charged to profit or loss on a straight line basis over the term of the relevant lease. Assets held under finance leases and hire purchase contracts are recognised at the lower of their fair value and the present value of the minimum lease payments, and the corresponding liability to the lessor is included in creditors.',
    },
    {
      title: 'Employee benefits',
      concept: 'EmployeeBenefitsPolicy',
      text: 'Short term employee benefits, including holiday pay and other similar non-monetary benefits, are recognised as an expense in the period in which the service is received. The company operates a defined contribution pension scheme; contributions are charged to profit or loss as they become payable in accordance with the rules of the scheme, and the assets of the scheme are held separately from those of the company in an independently administered fund.',
    },
  );
  if (company.sector === 'trade' || company.sector === 'manufacturing') {
    policies.push({
      title: 'Stocks',
      concept: 'InventoriesPolicy',
      text: 'Stocks are stated at the lower of cost and estimated selling price less costs to complete and sell. Cost is calculated using the first-in, first-out method and includes all purchase, transport and handling costs in bringing stocks to their present location and condition. Provision is made for obsolete and slow moving items.',
    });
  }
  return policies;
}

/** The "general information" note: legal form, jurisdiction, number, office and activity. */
export function generalInformation(company: SyntheticCompany, office: readonly string[]): string {
  const form =
    company.legalForm === 'llp'
      ? 'a limited liability partnership'
      : company.legalForm === 'plc'
        ? 'a public company limited by shares'
        : 'a private company limited by shares';
  return `${escapeXml(company.name)} is ${form} and is registered and incorporated in ${countryOfIncorporation(company)}. The registration number is ${company.company_number}. The address of the registered office is ${escapeXml(office.join(', '))}. The principal activity of the ${company.legalForm === 'llp' ? 'LLP' : 'company'} during the year was ${activity(company)}.`;
}

/** The principal activity, in the words of a directors' report. */
export function activity(company: SyntheticCompany): string {
  switch (company.sector) {
    case 'services':
      return 'the provision of professional and consultancy services';
    case 'trade':
      return 'the wholesale and retail supply of goods';
    case 'construction':
      return 'building, construction and related trades work';
    case 'manufacturing':
      return 'the manufacture and supply of engineered products';
    case 'property':
      return 'the letting and management of its own property';
    case 'holding':
      return 'that of a holding company for its subsidiary undertakings';
  }
}

export const DIRECTORS_RESPONSIBILITIES =
  'The directors are responsible for preparing the directors\u2019 report and the financial statements in accordance with applicable law and regulations. Company law requires the directors to prepare financial statements for each financial year. Under that law the directors have elected to prepare the financial statements in accordance with United Kingdom Generally Accepted Accounting Practice. Under company law the directors must not approve the financial statements unless they are satisfied that they give a true and fair view of the state of affairs of the company and of the profit or loss of the company for that period. In preparing these financial statements, the directors are required to select suitable accounting policies and then apply them consistently; make judgements and accounting estimates that are reasonable and prudent; and prepare the financial statements on the going concern basis unless it is inappropriate to presume that the company will continue in business.';

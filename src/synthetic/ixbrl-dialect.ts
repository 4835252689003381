/**
 * The per-filing "software" choices of an inline XBRL filing: which taxonomy version and entry
 * point, which prefixes the taxonomies are bound to, which transformation registry and format
 * names, how contexts are named and spelled, scale, quoting and layout. UK filing software differs
 * in all of these, and a parser must not care; varying them per filing is how the synthetic
 * corpus keeps it honest.
 */
import type { IxbrlStyle } from './companies.ts';
import { yearOf } from './dates.ts';
import type { Random } from './random.ts';

type ContextNaming = 'vt' | 'iris' | 'webfiling' | 'numbered';
export type Layout = 'table' | 'classes' | 'divs';
type DateSpelling = 'long' | 'short' | 'slash' | 'dots' | 'dotted-short';

interface TransformRegistry {
  prefix: string;
  namespace: string;
  number: string;
  zero: string;
  date: string;
  dateSpelling: DateSpelling;
}

export interface Dialect {
  style: IxbrlStyle;
  ixNamespace: string;
  transform: TransformRegistry;
  /** Prefixes the taxonomies are bound to in this filing. */
  core: string;
  bus: string;
  direp: string;
  countries: string;
  namespaces: { core: string; bus: string; direp: string; countries: string };
  schemaRef: string;
  /** Member of bus:AccountingStandardsDimension, or null when the filing has no such context. */
  standardMember: 'Micro-entities' | 'SmallEntities' | 'FRS102' | null;
  taxonomyVersion: string;
  contextNaming: ContextNaming;
  /** Write contexts as `<xbrli:context>` or as `<context xmlns="…instance">`. */
  xbrliPrefixed: boolean;
  /** Dimensions in `xbrli:segment` (usual) or `xbrli:scenario`. */
  dimensionContainer: 'segment' | 'scenario';
  prettyContexts: boolean;
  quote: '"' | "'";
  /** Repeat `xmlns:ix` on every fact, as IRIS does. */
  inlineNamespaceOnFacts: boolean;
  /** Attribute order on facts: name first, or contextRef first. */
  nameFirst: boolean;
  /** Write scale="0" explicitly. */
  explicitScale: boolean;
  /** 0, or 3 when every amount is in round thousands. */
  scale: 0 | 3;
  monetaryUnit: string;
  pureUnit: string;
  /** Registered number and context identifiers without their leading zeros ("9187004"). */
  dropLeadingZeros: boolean;
  headerAtEnd: boolean;
  layout: Layout;
  doctype: boolean;
  employeesHidden: 'no' | 'only' | 'also';
  software: { name: string; version: string };
  fontFamily: string;
}

const IX_2008 = 'http://www.xbrl.org/2008/inlineXBRL';
const IX_2013 = 'http://www.xbrl.org/2013/inlineXBRL';

/** FRC taxonomy versions and the first balance sheet year software used them for. */
const FRS_VERSIONS: readonly (readonly [string, number])[] = [
  ['2014-09-01', 2015],
  ['2019-01-01', 2019],
  ['2021-01-01', 2021],
  ['2022-01-01', 2022],
  ['2023-01-01', 2023],
  ['2024-01-01', 2024],
];

const SOFTWARE: readonly (readonly [string, string])[] = [
  ['VT Final Accounts', 'April 2022'],
  ['IRIS Accounts Production', '22.3.0'],
  ['CCH Accounts Production', '2021.1'],
  ['Sage Accounts Production', '22.1'],
  ['TaxCalc Accounts Production', '13.2.100'],
  ['Digita Accounts Production', '2019.2'],
  ['Caseware', '2020.00.217'],
  ['AccountsPrep', '3.1'],
  ['Xero Tax', '2.5'],
  ['FreeAgent', '1.0'],
];

/** The transformation registry of one filing: which ones its software knows depends on the year. */
function registry(rng: Random, year: number, ix2013: boolean): TransformRegistry {
  const options: (readonly [(rng: Random) => TransformRegistry, number])[] = [
    [registry2010, 5],
    [registry2011, 4],
  ];
  if (!ix2013) options.push([registry2008, 1]);
  if (ix2013 && year >= 2020) options.push([registry2020, year >= 2022 ? 6 : 3]);
  return rng.weighted(options)(rng);
}

function registry2010(rng: Random): TransformRegistry {
  return {
    prefix: 'ixt',
    namespace: 'http://www.xbrl.org/inlineXBRL/transformation/2010-04-20',
    number: 'ixt:numcommadot',
    zero: rng.chance(0.7) ? 'ixt:numdash' : 'ixt:zerodash',
    ...rng.pick<Pick<TransformRegistry, 'date' | 'dateSpelling'>>([
      { date: 'ixt:datelonguk', dateSpelling: 'long' },
      { date: 'ixt:datelonguk', dateSpelling: 'long' },
      { date: 'ixt:dateslasheu', dateSpelling: 'slash' },
      { date: 'ixt:datedoteu', dateSpelling: 'dots' },
      { date: 'ixt:dateshortuk', dateSpelling: 'short' },
    ]),
  };
}

function registry2011(rng: Random): TransformRegistry {
  const prefix = rng.pick(['ixt2', 'ixt']);
  return {
    prefix,
    namespace: 'http://www.xbrl.org/inlineXBRL/transformation/2011-07-31',
    number: `${prefix}:numdotdecimal`,
    zero: `${prefix}:zerodash`,
    ...rng.pick<Pick<TransformRegistry, 'date' | 'dateSpelling'>>([
      { date: `${prefix}:datedaymonthyearen`, dateSpelling: 'long' },
      { date: `${prefix}:datedaymonthyear`, dateSpelling: 'dotted-short' },
      { date: `${prefix}:datedaymonthyear`, dateSpelling: 'slash' },
    ]),
  };
}

/** Inline XBRL 1.0's own registry: one way of writing each kind of value, so no draw. */
function registry2008(): TransformRegistry {
  return {
    prefix: 'ixt',
    namespace: 'http://www.xbrl.org/2008/inlineXBRL/transformation',
    number: 'ixt:numcommadot',
    zero: 'ixt:numdash',
    date: 'ixt:datelonguk',
    dateSpelling: 'long',
  };
}

function registry2020(rng: Random): TransformRegistry {
  const prefix = rng.pick(['ixt4', 'ixt4', 'ixt']);
  return {
    prefix,
    namespace: 'http://www.xbrl.org/inlineXBRL/transformation/2020-02-12',
    number: `${prefix}:num-dot-decimal`,
    zero: `${prefix}:fixed-zero`,
    ...rng.pick<Pick<TransformRegistry, 'date' | 'dateSpelling'>>([
      { date: `${prefix}:date-day-monthname-year-en`, dateSpelling: 'long' },
      { date: `${prefix}:date-day-month-year`, dateSpelling: 'slash' },
    ]),
  };
}

const FRS_PREFIXES: readonly (readonly [string, string, string, string])[] = [
  // core, bus, direp, countries
  ['core', 'bus', 'direp', 'countries'],
  ['core', 'bus', 'direp', 'countries'],
  ['frs-core', 'frs-bus', 'frs-direp', 'frs-countries'],
  ['uk-core', 'uk-bus', 'uk-direp', 'uk-countries'],
  ['c', 'b', 'dr', 'cy'],
  ['d', 'e', 'f', 'g'],
  ['ns5', 'ns11', 'ns21', 'ns16'],
  ['uk-frs102', 'uk-bus', 'uk-direp', 'uk-countries'],
];

const UKGAAP_PREFIXES: readonly (readonly [string, string, string, string])[] = [
  ['uk-gaap-pt', 'uk-gaap-cd-bus', 'uk-gaap-rp-dir', 'uk-gaap-cd-countries'],
  ['uk-gaap-pt', 'uk-gaap-cd-bus', 'uk-gaap-rp-dir', 'uk-gaap-cd-countries'],
  ['uk-gaap', 'uk-bus', 'uk-direp', 'uk-countries'],
  ['pt', 'bus', 'direp', 'countries'],
  ['ns5', 'ns6', 'ns7', 'ns8'],
];

/** What the dialect of a filing depends on. */
export interface DialectFiling {
  style: IxbrlStyle;
  balanceSheetDate: string;
  companyNumber: string;
  /**
   * Whether every amount of the filing is a multiple of 1000, the only case in which `scale="3"`
   * can be used without changing a value.
   */
  roundThousands: boolean;
}

/** Choose the software dialect of one filing. Deterministic for the filing and the state of `rng`. */
export function chooseDialect(filing: DialectFiling, rng: Random): Dialect {
  const { style, roundThousands, companyNumber } = filing;
  const year = yearOf(filing.balanceSheetDate);
  const ix2013 = style === 'ukgaap2009' ? rng.chance(0.25) : rng.chance(0.85);
  const transform = registry(rng, year, ix2013);
  const [softwareName, softwareVersion] = rng.pick(SOFTWARE);
  const frs = style !== 'ukgaap2009';
  const [core, bus, direp, countries] = rng.pick(frs ? FRS_PREFIXES : UKGAAP_PREFIXES);
  const { taxonomyVersion, schemaRef, standardMember, namespaces } = frs
    ? frsTaxonomy(rng, style, year)
    : ukGaapTaxonomy();

  const contextNaming = rng.weighted<ContextNaming>([
    ['vt', 3],
    ['iris', 3],
    ['webfiling', frs ? 1 : 4],
    ['numbered', 2],
  ]);
  return {
    style,
    ixNamespace: ix2013 ? IX_2013 : IX_2008,
    transform,
    core,
    bus,
    direp,
    countries,
    namespaces,
    schemaRef,
    standardMember,
    taxonomyVersion,
    contextNaming,
    xbrliPrefixed: contextNaming === 'webfiling' ? rng.chance(0.2) : rng.chance(0.9),
    dimensionContainer: rng.chance(0.9) ? 'segment' : 'scenario',
    prettyContexts: rng.chance(0.75),
    quote: rng.chance(0.9) ? '"' : "'",
    inlineNamespaceOnFacts: contextNaming === 'iris' && rng.chance(0.6),
    nameFirst: rng.chance(0.6),
    explicitScale: rng.chance(0.35),
    scale: roundThousands && rng.chance(0.85) ? 3 : 0,
    monetaryUnit: rng.pick(['GBP', 'GBP', 'currencyUnit', 'u1', 'iso4217-GBP']),
    pureUnit: rng.pick(['pure', 'Pure', 'NoUnit', 'u2']),
    dropLeadingZeros: /^0\d{7}$/.test(companyNumber) && rng.chance(0.2),
    headerAtEnd: rng.chance(0.5),
    layout: rng.weighted<Layout>([
      ['table', 4],
      ['classes', 4],
      ['divs', 2],
    ]),
    doctype: rng.chance(0.3),
    employeesHidden: rng.weighted<Dialect['employeesHidden']>([
      ['no', 6],
      ['only', 2],
      ['also', 2],
    ]),
    software: { name: softwareName, version: softwareVersion },
    fontFamily: rng.pick(['Arial', 'Times New Roman', 'Helvetica', 'Calibri', 'Verdana']),
  };
}

/** The taxonomy a filing is tagged against: its version, entry point and namespaces. */
type Taxonomy = Pick<Dialect, 'taxonomyVersion' | 'schemaRef' | 'standardMember' | 'namespaces'>;

/** UK GAAP filings have one taxonomy (a fresh object each time, as the dialect is the filing's own). */
function ukGaapTaxonomy(): Taxonomy {
  return {
    taxonomyVersion: '2009-09-01',
    schemaRef: 'http://www.xbrl.org/uk/gaap/core/2009-09-01/uk-gaap-full-2009-09-01.xsd',
    standardMember: null,
    namespaces: {
      core: 'http://www.xbrl.org/uk/gaap/core/2009-09-01',
      bus: 'http://www.xbrl.org/uk/cd/business/2009-09-01',
      direp: 'http://www.xbrl.org/uk/reports/direp/2009-09-01',
      countries: 'http://www.xbrl.org/uk/cd/countries/2009-09-01',
    },
  };
}

function frsTaxonomy(rng: Random, style: IxbrlStyle, year: number): Taxonomy {
  const available = FRS_VERSIONS.filter(([, from]) => from <= Math.max(year, 2015));
  // Software lags the newest taxonomy: mostly the latest two.
  const taxonomyVersion = rng.pick(available.slice(-2))[0];
  const namespaces = {
    core: `http://xbrl.frc.org.uk/fr/${taxonomyVersion}/core`,
    bus: `http://xbrl.frc.org.uk/cd/${taxonomyVersion}/business`,
    direp: `http://xbrl.frc.org.uk/reports/${taxonomyVersion}/direp`,
    countries: `http://xbrl.frc.org.uk/cd/${taxonomyVersion}/countries`,
  };
  // Micro-entities file against the FRS-105 entry point or, as much software does, the FRS-102
  // one with the Micro-entities member saying which standard applies.
  const entry = style === 'frs105' && rng.chance(0.5) ? 'FRS-105' : 'FRS-102';
  const schemaRef = `https://xbrl.frc.org.uk/${entry}/${taxonomyVersion}/${entry}-${taxonomyVersion}.xsd`;
  const standardMember: Dialect['standardMember'] =
    style === 'frs105'
      ? entry === 'FRS-102' || rng.chance(0.7)
        ? 'Micro-entities'
        : null
      : rng.chance(0.8)
        ? rng.pick(['SmallEntities', 'SmallEntities', 'FRS102'] as const)
        : null;
  return { taxonomyVersion, schemaRef, standardMember, namespaces };
}

/**
 * Standard Industrial Classification (SIC 2007) codes for synthetic companies, spelt as the
 * register spells them ("62020 - Information technology consultancy activities"). A company's
 * first code follows the trade in its name when the name has one ("... PLUMBING LTD" is a
 * plumber), otherwise its sector; a minority declare a second, third or fourth activity.
 */
import type { Sector, SyntheticCompany } from './companies.ts';
import { labelSeed, Random } from './random.ts';
import { WeightedTable } from './weighted-table.ts';

type Weighted = readonly (readonly [string, number])[];

const DORMANT = '99999 - Dormant Company';

const BY_SECTOR: Record<Sector, Weighted> = {
  services: [
    ['62020 - Information technology consultancy activities', 9],
    ['62012 - Business and domestic software development', 6],
    ['62090 - Other information technology service activities', 5],
    ['70229 - Management consultancy activities other than financial management', 10],
    ['69201 - Accounting and auditing activities', 3],
    ['69202 - Bookkeeping activities', 2],
    ['73110 - Advertising agencies', 2],
    ['74100 - specialised design activities', 2],
    ['74909 - Other professional, scientific and technical activities n.e.c.', 5],
    ['82990 - Other business support service activities n.e.c.', 6],
    ['78109 - Other activities of employment placement agencies', 2],
    ['85590 - Other education n.e.c.', 2],
    ['86900 - Other human health activities', 3],
    ['96020 - Hairdressing and other beauty treatment', 3],
    ['96090 - Other personal service activities n.e.c.', 2],
    ['56101 - Licensed restaurants', 2],
    ['56102 - Unlicensed restaurants and cafes', 2],
    ['88100 - Social work activities without accommodation for the elderly and disabled', 1],
    ['81210 - General cleaning of buildings', 2],
    ['93130 - Fitness facilities', 1],
    ['71129 - Other engineering activities', 2],
    ['59111 - Motion picture production activities', 1],
    ['90030 - Artistic creation', 1],
    ['49410 - Freight transport by road', 2],
    ['49320 - Taxi operation', 1],
    ['53202 - Unlicensed carrier', 1],
    ['66190 - Activities auxiliary to financial intermediation n.e.c.', 1],
    ['82110 - Combined office administrative service activities', 1],
  ],
  trade: [
    ['47910 - Retail sale via mail order houses or via Internet', 8],
    ['47190 - Other retail sale in non-specialised stores', 3],
    ['46900 - Non-specialised wholesale trade', 5],
    ['47110 - Retail sale in non-specialised stores with food, beverages or tobacco predominating', 3],
    ['45111 - Sale of new cars and light motor vehicles', 2],
    ['45200 - Maintenance and repair of motor vehicles', 3],
    ['46190 - Agents involved in the sale of a variety of goods', 2],
    ['47710 - Retail sale of clothing in specialised stores', 2],
    ['46390 - Non-specialised wholesale of food, beverages and tobacco', 2],
    ['47990 - Other retail sale not in stores, stalls or markets', 2],
  ],
  construction: [
    ['41202 - Construction of domestic buildings', 6],
    ['41201 - Construction of commercial buildings', 3],
    ['43210 - Electrical installation', 5],
    ['43220 - Plumbing, heat and air-conditioning installation', 5],
    ['43390 - Other building completion and finishing', 4],
    ['43999 - Other specialised construction activities n.e.c.', 5],
    ['43910 - Roofing activities', 2],
    ['43320 - Joinery installation', 2],
    ['43341 - Painting', 2],
    ['43120 - Site preparation', 1],
    ['42990 - Construction of other civil engineering projects n.e.c.', 1],
  ],
  manufacturing: [
    ['25620 - Machining', 3],
    ['25990 - Manufacture of other fabricated metal products n.e.c.', 3],
    ['10710 - Manufacture of bread; manufacture of fresh pastry goods and cakes', 2],
    ['11050 - Manufacture of beer', 1],
    ['18129 - Printing n.e.c.', 2],
    ['22290 - Manufacture of other plastic products', 2],
    ['28990 - Manufacture of other special-purpose machinery n.e.c.', 2],
    ['31090 - Manufacture of other furniture', 2],
    ['32990 - Other manufacturing n.e.c.', 3],
    ['33120 - Repair of machinery', 2],
    ["16230 - Manufacture of other builders' carpentry and joinery", 1],
  ],
  property: [
    ['68209 - Other letting and operating of own or leased real estate', 10],
    ['68100 - Buying and selling of own real estate', 6],
    ['68320 - Management of real estate on a fee or contract basis', 3],
    ['68310 - Real estate agencies', 2],
    ['41100 - Development of building projects', 4],
    ['98000 - Residents property management', 2],
  ],
  holding: [
    ['64209 - Activities of other holding companies n.e.c.', 10],
    ['70100 - Activities of head offices', 4],
    ['64205 - Activities of financial services holding companies', 1],
    ['64999 - Financial intermediation not elsewhere classified', 1],
    ['64303 - Activities of venture and development capital companies', 1],
  ],
};

/** Trades named in company names, and the activity they mean. */
const BY_TRADE: readonly (readonly [string, string])[] = [
  ['PLUMBING', '43220 - Plumbing, heat and air-conditioning installation'],
  ['ELECTRICAL', '43210 - Electrical installation'],
  ['ROOFING', '43910 - Roofing activities'],
  ['JOINERY', '43320 - Joinery installation'],
  ['LANDSCAPES', '81300 - Landscape service activities'],
  ['GROUNDWORKS', '43120 - Site preparation'],
  ['SCAFFOLDING', '43991 - Scaffold erection'],
  ['DECORATORS', '43341 - Painting'],
  ['BUILD', '41202 - Construction of domestic buildings'],
  ['CONSTRUCTION', '41201 - Construction of commercial buildings'],
  ['SOFTWARE', '62012 - Business and domestic software development'],
  ['DIGITAL', '62090 - Other information technology service activities'],
  ['IT SOLUTIONS', '62020 - Information technology consultancy activities'],
  ['TECHNOLOGIES', '62020 - Information technology consultancy activities'],
  ['SYSTEMS', '62020 - Information technology consultancy activities'],
  ['DATA', '63110 - Data processing, hosting and related activities'],
  ['CONSULT', '70229 - Management consultancy activities other than financial management'],
  ['MANAGEMENT', '70229 - Management consultancy activities other than financial management'],
  ['LETTINGS', '68310 - Real estate agencies'],
  ['PROPERT', '68209 - Other letting and operating of own or leased real estate'],
  ['ESTATES', '68100 - Buying and selling of own real estate'],
  ['DEVELOPMENTS', '41100 - Development of building projects'],
  ['INVESTMENTS', '64999 - Financial intermediation not elsewhere classified'],
  ['CAPITAL', '64303 - Activities of venture and development capital companies'],
  ['HOLDINGS', '64209 - Activities of other holding companies n.e.c.'],
  ['TRADING', '46900 - Non-specialised wholesale trade'],
  ['SUPPLIES', '46900 - Non-specialised wholesale trade'],
  ['DISTRIBUTION', '46190 - Agents involved in the sale of a variety of goods'],
  ['LOGISTICS', '52290 - Other transportation support activities'],
  ['TRANSPORT', '49410 - Freight transport by road'],
  ['HAULAGE', '49410 - Freight transport by road'],
  ['COURIERS', '53202 - Unlicensed carrier'],
  ['MOTORS', '45111 - Sale of new cars and light motor vehicles'],
  ['GARAGE', '45200 - Maintenance and repair of motor vehicles'],
  ['PRECISION ENGINEERING', '25620 - Machining'],
  ['ENGINEERING', '71129 - Other engineering activities'],
  ['FABRICATIONS', '25110 - Manufacture of metal structures and parts of structures'],
  ['MANUFACTURING', '32990 - Other manufacturing n.e.c.'],
  ['PACKAGING', '82920 - Packaging activities'],
  ['PRINT', '18129 - Printing n.e.c.'],
  ['INTERIORS', '74100 - specialised design activities'],
  ['DESIGN', '74100 - specialised design activities'],
  ['MEDIA', '59112 - Video production activities'],
  ['MARKETING', '73110 - Advertising agencies'],
  ['EVENTS', '82302 - Activities of conference organisers'],
  ['CATERING', '56210 - Event catering activities'],
  ['BAKERY', '10710 - Manufacture of bread; manufacture of fresh pastry goods and cakes'],
  ['KITCHENS & BATHROOMS', '43320 - Joinery installation'],
  ['KITCHEN', '56102 - Unlicensed restaurants and cafes'],
  ['FOODS', '10890 - Manufacture of other food products n.e.c.'],
  ['BREWING', '11050 - Manufacture of beer'],
  ['COFFEE', '56102 - Unlicensed restaurants and cafes'],
  ['INNS', '56302 - Public houses and bars'],
  ['HOTELS', '55100 - Hotels and similar accommodation'],
  ['HOME CARE', '88100 - Social work activities without accommodation for the elderly and disabled'],
  ['HEALTHCARE', '86900 - Other human health activities'],
  ['CARE', '87300 - Residential care activities for the elderly and disabled'],
  ['DENTAL', '86230 - Dental practice activities'],
  ['PHARMACY', '47730 - Dispensing chemist in specialised stores'],
  ['VETERINARY', '75000 - Veterinary activities'],
  ['FITNESS', '93130 - Fitness facilities'],
  ['HAIR & BEAUTY', '96020 - Hairdressing and other beauty treatment'],
  ['CLEANING', '81210 - General cleaning of buildings'],
  ['FACILITIES', '81100 - Combined facilities support activities'],
  ['SECURITY', '80100 - Private security activities'],
  ['RECRUITMENT', '78109 - Other activities of employment placement agencies'],
  ['TRAINING', '85590 - Other education n.e.c.'],
  ['EDUCATION', '85600 - Educational support services'],
  ['NURSERY', '88910 - Child day-care activities'],
  ['ACCOUNTANCY', '69201 - Accounting and auditing activities'],
  ['FINANCIAL SERVICES', '66190 - Activities auxiliary to financial intermediation n.e.c.'],
  ['INSURANCE SERVICES', '66220 - Activities of insurance agents and brokers'],
  ['LEGAL SERVICES', '69109 - Activities of patent and copyright agents; other legal activities n.e.c.'],
  ['ARCHITECTS', '71111 - Architectural activities'],
  ['SURVEYORS', '71122 - Engineering related scientific and technical consulting activities'],
  ['SOLAR', '35110 - Production of electricity'],
  ['RENEWABLES', '35110 - Production of electricity'],
  ['ENERGY', '35110 - Production of electricity'],
  ['ENVIRONMENTAL', '74901 - Environmental consulting activities'],
  ['AGRICULTURE', '01500 - Mixed farming'],
  ['FARMING', '01500 - Mixed farming'],
  ['EQUESTRIAN', '93199 - Other sports activities'],
  [
    'GARDEN CENTRE',
    '47760 - Retail sale of flowers, plants, seeds, fertilizers, pet animals and pet food in specialised stores',
  ],
  ['FLOORING', '43330 - Floor and wall covering'],
  ['WINDOWS', '43342 - Glazing'],
  ['FURNITURE', '31090 - Manufacture of other furniture'],
  ['TEXTILES', '13990 - Manufacture of other textiles n.e.c.'],
  ['FASHION', '47710 - Retail sale of clothing in specialised stores'],
  ['TRAVEL', '79110 - Travel agency activities'],
];

/** Activities of guarantee companies and community interest companies. */
const NOT_FOR_PROFIT: Weighted = [
  ['98000 - Residents property management', 6],
  ['94990 - Activities of other membership organisations n.e.c.', 4],
  ['88990 - Other social work activities without accommodation n.e.c.', 3],
  ['85590 - Other education n.e.c.', 2],
  ['93199 - Other sports activities', 2],
];

// One scan of the name finds its first trade, longest spellings first ("HOME CARE" before "CARE").
const TRADE_PATTERN = new RegExp(
  [...BY_TRADE]
    .map(([word]) => word)
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);
const TRADE_CODE = new Map(BY_TRADE);

const SIC = labelSeed('register-sic');
const SECTOR_TABLES = Object.fromEntries(
  Object.entries(BY_SECTOR).map(([sector, codes]) => [sector, new WeightedTable(codes)]),
) as Record<Sector, WeightedTable<string>>;
const NOT_FOR_PROFIT_TABLE = new WeightedTable(NOT_FOR_PROFIT);

/** How many activities a company declares: mostly one (the register: 12% two or more). */
const HOW_MANY: readonly (readonly [number, number])[] = [
  [1, 86],
  [2, 8],
  [3, 4],
  [4, 2],
];

/**
 * The company's SIC codes, one to four, as the register spells them. `notForProfit` marks a
 * company limited by guarantee or a community interest company.
 */
export function sicCodes(seed: number, company: SyntheticCompany, notForProfit: boolean): string[] {
  const rng = Random.derive(seed, company.index, SIC);
  if (company.size === 'dormant' && rng.chance(0.6)) return [DORMANT];
  const table = notForProfit ? NOT_FOR_PROFIT_TABLE : SECTOR_TABLES[company.sector];
  const trade = TRADE_PATTERN.exec(company.name);
  const first = trade !== null && !notForProfit && rng.chance(0.8) ? TRADE_CODE.get(trade[0])! : table.pick(rng);
  const codes = [first];
  const count = rng.weighted(HOW_MANY);
  for (let attempt = 0; codes.length < count && attempt < 8; attempt++) {
    const code = table.pick(rng);
    if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

/**
 * Every SIC code this module knows, once each, in code order, as the register spells them: the
 * industries the web's industry picker names (src/web/industry-picker.ts).
 */
export const KNOWN_SIC_CODES: readonly string[] = [
  ...new Set([
    DORMANT,
    ...Object.values(BY_SECTOR).flatMap((codes) => codes.map(([code]) => code)),
    ...BY_TRADE.map(([, code]) => code),
    ...NOT_FOR_PROFIT.map(([code]) => code),
  ]),
].sort();

/**
 * Registered office addresses for synthetic companies, in the register's shape: care-of, PO box,
 * two address lines, post town, county, country and postcode, upper case.
 *
 * The office must lie in the company's own jurisdiction (an English or Welsh company in England or
 * Wales, a Scottish one in Scotland...). Some companies use a formation agent's or accountant's
 * address, shared with many others, as on the real register. Companies move now and then; each
 * address is drawn from (seed, index, move number), so every snapshot tells the same story.
 * Fields are filled as unevenly as the register fills them: county on about two in five,
 * country on about two in three.
 */
import type { SyntheticCompany } from './companies.ts';
import type { Register } from './company-numbers.ts';
import { fastDayNumber } from './dates.ts';
import { exponentialDays, labelSeed, Random } from './random.ts';
import { NATION_NAMES, POST_TOWNS } from './uk-places.ts';
import { WeightedTable } from './weighted-table.ts';
import type { Nation, PostTown } from './uk-places.ts';

/** The register's `RegAddress.*` fields; null where the register has an empty string. */
export interface RegisteredAddress {
  care_of: string | null;
  po_box: string | null;
  address_line_1: string | null;
  address_line_2: string | null;
  post_town: string | null;
  county: string | null;
  country: string | null;
  postcode: string | null;
}

const STREET_NAMES = [
  'HIGH',
  'STATION',
  'CHURCH',
  'MILL',
  'PARK',
  'VICTORIA',
  'QUEEN',
  'KING',
  'NEW',
  'LONDON',
  'MANOR',
  'GREEN',
  'SCHOOL',
  'NORTH',
  'SOUTH',
  'WEST',
  'BRIDGE',
  'MARKET',
  'ALBERT',
  'GEORGE',
  'WINDSOR',
  'YORK',
  'OAK',
  'ELM',
  'BEECH',
  'ASH',
  'CEDAR',
  'WILLOW',
  'MAPLE',
  'BIRCH',
  'HOLLY',
  'ORCHARD',
  'MEADOW',
  'SPRING',
  'CASTLE',
  'ABBEY',
  'PRIORY',
  'CHAPEL',
  'BROOK',
  'RIVER',
  'FOREST',
  'HEATH',
  'MOOR',
  'TOWER',
  'CROWN',
  'REGENT',
  'WELLINGTON',
  'NELSON',
  'GLADSTONE',
  'CAVENDISH',
  'GROSVENOR',
  'PORTLAND',
  'BEDFORD',
  'CAMBRIDGE',
  'OXFORD',
  'CLARENCE',
  'BRUNSWICK',
  'HANOVER',
  'TRINITY',
  "ST JOHN'S",
  "ST MARY'S",
  'PRINCES',
  'MOUNT PLEASANT',
  'BROAD',
  'WATERLOO',
  'DUKE',
  'CHARLES',
  'JAMES',
  'CHAPEL HILL',
  'FAIRFIELD',
  'GROVE',
  'KINGSWAY',
  'ALEXANDRA',
  'HAMILTON',
  'MONTAGUE',
];

const STREET_KINDS = new WeightedTable<string>([
  ['ROAD', 30],
  ['STREET', 22],
  ['LANE', 10],
  ['AVENUE', 8],
  ['CLOSE', 6],
  ['DRIVE', 6],
  ['WAY', 5],
  ['GARDENS', 3],
  ['CRESCENT', 3],
  ['PLACE', 3],
  ['TERRACE', 2],
  ['PARADE', 1],
  ['SQUARE', 1],
  ['RISE', 1],
  ['WALK', 1],
]);

const BUILDINGS = [
  'CENTURY',
  'REGENCY',
  'EMPIRE',
  'CITY',
  'UNION',
  'MERCHANT',
  'KINGFISHER',
  'SOVEREIGN',
  'CORNWALL',
  'BRIDGEWATER',
  'CHANCERY',
  'LANCASTER',
  'WESTGATE',
  'EASTGATE',
  'NORTHGATE',
  'TEMPLE',
  'EXCHANGE',
  'HALIFAX',
  'GATEWAY',
  'MIDLAND',
  'PHOENIX',
  'OLYMPIC',
  'CARLTON',
  'ALBANY',
  'BEAUFORT',
  'WESTMINSTER',
  'ASHDOWN',
  'RIVERSIDE',
  'HERITAGE',
  'MONARCH',
];

const LOCALITIES = [
  'NORTHFIELD',
  'SOUTHGATE',
  'WESTHILL',
  'EASTWOOD',
  'FAIRVIEW',
  'HILLSIDE',
  'LOWER GREEN',
  'UPPER HEATH',
  'OLD TOWN',
  'CITY CENTRE',
  'KINGSLEY',
  'ASHLEY',
  'BRAMHALL',
  'HOLMWOOD',
  'WOODSIDE',
  'BROOKLANDS',
  'NEWTOWN',
  'MOORSIDE',
  'CHURCHTOWN',
  'RIVERSDALE',
];

const FIRMS = ['ACCOUNTANTS LIMITED', 'ACCOUNTANTS LTD', '& CO', 'ASSOCIATES LLP', 'LLP', 'CHARTERED ACCOUNTANTS'];
const FIRM_NAMES = ['HARRIS', 'PATEL', 'MORGAN', 'BRADSHAW', 'COLLINS', 'REID', 'BAXTER', 'DOYLE', 'KERR', 'OWEN'];
const FLOORS = ['GROUND FLOOR', '1ST FLOOR', '2ND FLOOR', '3RD FLOOR', '4TH FLOOR'];
const ESTATES = ['BUSINESS PARK', 'INDUSTRIAL ESTATE', 'TRADING ESTATE', 'BUSINESS CENTRE', 'ENTERPRISE PARK'];
const RURAL = ['FARM', 'COTTAGE', 'BARN', 'LODGE', 'HOUSE'];
// Inward codes never use C, I, K, M, O or V.
const INWARD_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';

const ADDRESS = labelSeed('register-address');
const AGENTS = labelSeed('register-agents');
/** How many formation agents and accountants' offices serve each nation. */
const AGENT_OFFICES = 60;
/** Moves a year. */
const MOVE_RATE = 0.03;
const MOST_MOVES = 20;
/** Offices registered before online filing more often left the country field blank. */
const ONLINE_ERA = fastDayNumber('2009-01-01');

const TOWNS: Record<Nation, WeightedTable<PostTown>> = {
  england: new WeightedTable(POST_TOWNS.england),
  wales: new WeightedTable(POST_TOWNS.wales),
  scotland: new WeightedTable(POST_TOWNS.scotland),
  'northern-ireland': new WeightedTable(POST_TOWNS['northern-ireland']),
};

/** Where a company of each register may have its office, and how often. */
const NATIONS: Record<Register, readonly (readonly [Nation, number])[]> = {
  'england-wales': [
    ['england', 95],
    ['wales', 5],
  ],
  llp: [
    ['england', 95],
    ['wales', 5],
  ],
  scotland: [['scotland', 1]],
  'northern-ireland': [['northern-ireland', 1]],
};

function street(rng: Random): string {
  return `${rng.pick(STREET_NAMES)} ${STREET_KINDS.pick(rng)}`;
}

function postcode(rng: Random, town: PostTown): string {
  const letters = INWARD_LETTERS.length;
  return `${rng.pick(town.districts)} ${rng.int(1, 9)}${INWARD_LETTERS[rng.int(0, letters - 1)]}${INWARD_LETTERS[rng.int(0, letters - 1)]}`;
}

/** Shapes of address lines (numbered as in `lines`), by how common they are. */
const LINE_SHAPES = new WeightedTable<number>([
  [0, 38],
  [1, 15],
  [2, 11],
  [3, 8],
  [4, 10],
  [5, 6],
  [6, 12],
]);

/** The two address lines of an office; the second is often empty. */
function lines(rng: Random): [string, string | null] {
  switch (LINE_SHAPES.pick(rng)) {
    case 0:
      return [`${rng.int(1, 240)} ${street(rng)}`, rng.chance(0.45) ? rng.pick(LOCALITIES) : null];
    case 1:
      return [`${rng.pick(BUILDINGS)} HOUSE`, `${rng.int(1, 150)} ${street(rng)}`];
    case 2:
      return [`UNIT ${rng.int(1, 40)} ${rng.pick(STREET_NAMES)} ${rng.pick(ESTATES)}`, street(rng)];
    case 3:
      return [`FLAT ${rng.int(1, 60)}`, `${rng.int(1, 200)} ${street(rng)}`];
    case 4:
      return [`${rng.pick(FLOORS)}, ${rng.pick(BUILDINGS)} HOUSE`, `${rng.int(1, 120)} ${street(rng)}`];
    case 5:
      return [`${rng.pick(STREET_NAMES)} ${rng.pick(RURAL)}`, street(rng)];
    default: {
      const from = rng.int(1, 120);
      return [`${from}-${from + rng.int(1, 8)} ${street(rng)}`, rng.chance(0.3) ? rng.pick(LOCALITIES) : null];
    }
  }
}

function countryField(rng: Random, nation: Nation, since: number): string | null {
  const blank = since < ONLINE_ERA ? 0.8 : 0.22;
  if (rng.chance(blank)) return null;
  return rng.chance(0.62) ? NATION_NAMES[nation] : 'UNITED KINGDOM';
}

/** An office of its own, or a shared one, for a company moving in on `since`. */
function drawAddress(seed: number, rng: Random, register: Register, since: number): RegisteredAddress {
  const nation = rng.weighted(NATIONS[register]);
  if (rng.chance(0.08)) return agentAddress(seed, nation, rng.int(0, AGENT_OFFICES - 1));
  const town = TOWNS[nation].pick(rng);
  const [line1, line2] = lines(rng);
  const careOf = rng.chance(0.018) ? `${rng.pick(FIRM_NAMES)} ${rng.pick(FIRMS)}` : null;
  const poBox = rng.chance(0.003) ? `PO BOX ${rng.int(10, 9999)}` : null;
  return {
    care_of: careOf,
    po_box: poBox,
    address_line_1: line1,
    address_line_2: line2,
    post_town: town.town,
    county: rng.chance(0.38) ? town.county : null,
    country: countryField(rng, nation, since),
    postcode: postcode(rng, town),
  };
}

/** Office `office` of the shared addresses of a nation: the same for every company that uses it. */
function agentAddress(seed: number, nation: Nation, office: number): RegisteredAddress {
  const rng = Random.derive(seed, AGENTS, office, labelSeed(nation));
  const town = TOWNS[nation].pick(rng);
  const floor = rng.chance(0.5) ? `${rng.pick(FLOORS)}, ` : '';
  return {
    care_of: null,
    po_box: null,
    address_line_1: `${floor}${rng.int(1, 300)} ${street(rng)}`,
    address_line_2: rng.chance(0.3) ? rng.pick(LOCALITIES) : null,
    post_town: town.town,
    county: rng.chance(0.3) ? town.county : null,
    country: rng.chance(0.15) ? null : rng.chance(0.6) ? NATION_NAMES[nation] : 'UNITED KINGDOM',
    postcode: postcode(rng, town),
  };
}

/** The company's registered office on `day` (days since 1970-01-01). */
export function registeredAddress(seed: number, company: SyntheticCompany, day: number): RegisteredAddress {
  let since = fastDayNumber(company.incorporated);
  let move = 0;
  // Follow the moves up to `day`; the address in force is the one of the last move made.
  for (let n = 1; n <= MOST_MOVES; n++) {
    const next = since + exponentialDays(Random.derive(seed, company.index, ADDRESS, n, 0), MOVE_RATE);
    if (next > day) break;
    since = next;
    move = n;
  }
  return drawAddress(seed, Random.derive(seed, company.index, ADDRESS, move), company.register, since);
}

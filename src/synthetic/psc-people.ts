/**
 * Individuals with significant control for the synthetic PSC snapshot: a name as Companies House
 * holds it (title, forename, middle name, surname), month and year of birth, nationality, country
 * of residence and a correspondence address. A person is a pure function of (seed, person id), so
 * one who controls many companies appears with the same name elements and birth month and year in
 * each of them, as the real register's serial owners do.
 */
import { labelSeed, Random } from './random.ts';
import { POST_TOWNS } from './uk-places.ts';
import type { Nation, PostTown } from './uk-places.ts';
import { WeightedTable } from './weighted-table.ts';

export interface PscPerson {
  title: string | null;
  forename: string;
  middle_name: string | null;
  surname: string;
  birth_month: number;
  birth_year: number;
  nationality: string;
  country_of_residence: string;
  address: PscAddress;
}

/** A PSC's address as the snapshot writes it; absent parts are left out, as the snapshot does. */
export interface PscAddress {
  address_line_1?: string;
  address_line_2?: string;
  country?: string;
  locality?: string;
  postal_code?: string;
  premises?: string;
  region?: string;
}

const MALE = [
  'James', 'John', 'David', 'Michael', 'Paul', 'Andrew', 'Mark', 'Richard', 'Stephen', 'Robert',
  'Peter', 'Christopher', 'Daniel', 'Matthew', 'Thomas', 'Simon', 'Ian', 'Gary', 'Steven', 'Jonathan',
  'William', 'Benjamin', 'Samuel', 'Oliver', 'Jack', 'Harry', 'George', 'Adam', 'Luke', 'Ryan',
  'Mohammed', 'Muhammad', 'Ali', 'Imran', 'Raj', 'Sanjay', 'Arjun', 'Wei', 'Jun', 'Piotr',
  'Tomasz', 'Marek', 'Andrei', 'Ionut', 'Marco', 'Luca', 'Carlos', 'Oluwaseun', 'Chinedu', 'Kwame',
  'Connor', 'Callum', 'Ewan', 'Rhys', 'Gareth', 'Dylan', 'Sean', 'Patrick', 'Declan', 'Ciaran',
]; // prettier-ignore
const FEMALE = [
  'Sarah', 'Emma', 'Claire', 'Helen', 'Rachel', 'Nicola', 'Louise', 'Joanne', 'Karen', 'Susan',
  'Elizabeth', 'Catherine', 'Victoria', 'Charlotte', 'Sophie', 'Emily', 'Jessica', 'Hannah', 'Laura', 'Amy',
  'Fatima', 'Aisha', 'Priya', 'Anjali', 'Mei', 'Li', 'Anna', 'Katarzyna', 'Agnieszka', 'Elena',
  'Maria', 'Giulia', 'Sofia', 'Ngozi', 'Chioma', 'Amara', 'Siobhan', 'Aoife', 'Niamh', 'Eilidh',
  'Fiona', 'Morag', 'Bethan', 'Sian', 'Rhiannon', 'Grace', 'Olivia', 'Amelia', 'Isla', 'Jane',
]; // prettier-ignore
const SURNAMES = [
  'Smith', 'Jones', 'Williams', 'Taylor', 'Brown', 'Davies', 'Evans', 'Wilson', 'Thomas', 'Johnson',
  'Roberts', 'Robinson', 'Thompson', 'Wright', 'Walker', 'White', 'Edwards', 'Hughes', 'Green', 'Hall',
  'Lewis', 'Harris', 'Clarke', 'Patel', 'Jackson', 'Wood', 'Turner', 'Martin', 'Cooper', 'Hill',
  'Ward', 'Morris', 'Moore', 'Clark', 'Lee', 'King', 'Baker', 'Harrison', 'Morgan', 'Allen',
  'James', 'Scott', 'Phillips', 'Watson', 'Davis', 'Parker', 'Price', 'Bennett', 'Young', 'Griffiths',
  'Mitchell', 'Kelly', 'Cook', 'Carter', 'Richardson', 'Bailey', 'Collins', 'Bell', 'Shaw', 'Murphy',
  'Miller', 'Cox', 'Richards', 'Khan', 'Marshall', 'Anderson', 'Simpson', 'Ellis', 'Adams', 'Singh',
  'Begum', 'Wilkinson', 'Foster', 'Chapman', 'Powell', 'Webb', 'Rogers', 'Gray', 'Mason', 'Ali',
  'Hunt', 'Hussain', 'Campbell', 'Matthews', 'Owen', 'Palmer', 'Holmes', 'Mills', 'Barnes', 'Knight',
  'Lloyd', 'Butler', 'Russell', 'Barker', 'Fisher', 'Stevens', 'Jenkins', 'Murray', 'Dixon', 'Harvey',
  'Ahmed', 'Shah', 'Sharma', 'Kaur', 'Chen', 'Wang', 'Zhang', 'Nguyen', 'Kowalski', 'Nowak',
  'Wisniewski', 'Popescu', 'Rossi', 'Ferrari', 'Okafor', 'Adeyemi', 'Mensah', 'O\'Brien', 'O\'Neill', 'MacDonald',
  'McLeod', 'Fraser', 'Stewart', 'Reid', 'Quinn', 'Doherty', 'Gallagher', 'Pritchard', 'Vaughan', 'Llewellyn',
]; // prettier-ignore

/** Nationality as filed, and where someone of it mostly lives (abroad for some). */
const NATIONALITIES: readonly (readonly [readonly [nationality: string, home: string], number])[] = [
  [['British', 'England'], 760],
  [['English', 'England'], 20],
  [['Scottish', 'Scotland'], 8],
  [['Welsh', 'Wales'], 5],
  [['Irish', 'Ireland'], 20],
  [['Indian', 'India'], 25],
  [['Polish', 'Poland'], 20],
  [['Romanian', 'Romania'], 18],
  [['Chinese', 'China'], 20],
  [['Pakistani', 'Pakistan'], 12],
  [['Italian', 'Italy'], 12],
  [['Nigerian', 'Nigeria'], 10],
  [['American', 'United States'], 10],
  [['German', 'Germany'], 8],
  [['French', 'France'], 8],
  [['Spanish', 'Spain'], 6],
  [['Portuguese', 'Portugal'], 6],
  [['Bulgarian', 'Bulgaria'], 6],
  [['Lithuanian', 'Lithuania'], 5],
  [['South African', 'South Africa'], 5],
  [['Australian', 'Australia'], 4],
  [['Vietnamese', 'Vietnam'], 3],
  [['Turkish', 'Turkey'], 4],
  [['Greek', 'Greece'], 3],
  [['Dutch', 'Netherlands'], 3],
];

const UK_RESIDENCE: readonly (readonly [string, number])[] = [
  ['England', 80],
  ['United Kingdom', 12],
  ['Wales', 3],
  ['Scotland', 4],
  ['Northern Ireland', 1],
];

const NATION_OF_RESIDENCE: Record<string, Nation> = {
  England: 'england',
  'United Kingdom': 'england',
  Wales: 'wales',
  Scotland: 'scotland',
  'Northern Ireland': 'northern-ireland',
};

const TOWNS: Record<Nation, WeightedTable<PostTown>> = {
  england: new WeightedTable(POST_TOWNS.england),
  wales: new WeightedTable(POST_TOWNS.wales),
  scotland: new WeightedTable(POST_TOWNS.scotland),
  'northern-ireland': new WeightedTable(POST_TOWNS['northern-ireland']),
};

const STREETS = [
  'High Street', 'Station Road', 'Church Lane', 'Mill Lane', 'Park Road', 'Victoria Road', 'Queens Road',
  'Kings Road', 'Manor Road', 'Green Lane', 'School Lane', 'The Avenue', 'London Road', 'York Road',
  'Market Place', 'Albert Road', 'Springfield Road', 'Chapel Street', 'North Street', 'West Street',
]; // prettier-ignore
const BUILDINGS = ['Unit 3', 'Suite 4', 'First Floor', 'Ground Floor', 'Office 12', 'Flat 2'];
const LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';

const PERSON = labelSeed('psc-person');

/** "NEWCASTLE UPON TYNE" as people write it: "Newcastle Upon Tyne". */
export function titleCase(upper: string): string {
  return upper
    .toLowerCase()
    .replace(/(^|[\s\-('.&])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());
}

// Towns and counties are few and asked for millions of times.
const TITLE_CASED = new Map<string, string>();
function titleCasedPlace(upper: string): string {
  let cased = TITLE_CASED.get(upper);
  if (cased === undefined) TITLE_CASED.set(upper, (cased = titleCase(upper)));
  return cased;
}

/** A correspondence address in the UK nation named, as the snapshot writes one. */
export function ukAddress(rng: Random, residence: string): PscAddress {
  const town = TOWNS[NATION_OF_RESIDENCE[residence] ?? 'england'].pick(rng);
  const district = rng.pick(town.districts);
  const postcode = `${district} ${rng.int(1, 9)}${LETTERS[rng.int(0, LETTERS.length - 1)]}${LETTERS[rng.int(0, LETTERS.length - 1)]}`;
  const address: PscAddress = { address_line_1: rng.pick(STREETS) };
  if (rng.chance(0.2)) address.address_line_2 = `${rng.pick(['Business', 'Enterprise', 'Riverside', 'Trade'])} Park`;
  if (rng.chance(0.7)) address.country = residence === 'United Kingdom' ? 'United Kingdom' : residence;
  address.locality = titleCasedPlace(town.town);
  address.postal_code = postcode;
  address.premises = rng.chance(0.7) ? String(rng.int(1, 240)) : rng.pick(BUILDINGS);
  if (rng.chance(0.3)) address.region = titleCasedPlace(town.county);
  return address;
}

function abroadAddress(rng: Random, country: string): PscAddress {
  return {
    address_line_1: `${rng.pick(['Main', 'Central', 'Park', 'Harbour', 'Market'])} Street`,
    country,
    locality: `${country === 'United States' ? 'New York' : 'Capital'} City`,
    postal_code: String(rng.int(10_000, 99_999)),
    premises: String(rng.int(1, 400)),
  };
}

/** The person behind id `personId` (a number or a tuple of numbers naming them uniquely). */
export function pscPerson(seed: number, ...personId: number[]): PscPerson {
  const rng = Random.derive(seed, PERSON, ...personId);
  const female = rng.chance(0.32);
  const forename = rng.pick(female ? FEMALE : MALE);
  const middle = rng.chance(0.55) ? rng.pick(female ? FEMALE : MALE) : null;
  const surname = rng.pick(SURNAMES);
  const title = rng.chance(0.12)
    ? null
    : female
      ? rng.weighted<string>([
          ['Mrs', 45],
          ['Ms', 35],
          ['Miss', 14],
          ['Dr', 6],
        ])
      : rng.weighted<string>([
          ['Mr', 94],
          ['Dr', 5],
          ['Sir', 1],
        ]);
  const [nationality, home] = rng.weighted(NATIONALITIES);
  const abroad = home !== 'England' && home !== 'Scotland' && home !== 'Wales' && rng.chance(0.25);
  const residence = abroad ? home : home === 'Scotland' || home === 'Wales' ? home : rng.weighted(UK_RESIDENCE);
  return {
    title,
    forename,
    middle_name: middle === forename ? null : middle,
    surname,
    birth_month: rng.int(1, 12),
    birth_year: Math.round(rng.uniform(1938, 1999)),
    nationality,
    country_of_residence: residence,
    address: abroad ? abroadAddress(rng, home) : ukAddress(rng, residence),
  };
}

/** The name as the snapshot prints it: "Mr John Andrew Smith". */
export function printedName(person: PscPerson): string {
  const parts = [person.title, person.forename, person.middle_name, person.surname].filter((p) => p !== null);
  return parts.join(' ');
}

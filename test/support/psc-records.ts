/**
 * PSC records for tests that need them in a store without going through a snapshot file: an
 * individual, a corporate PSC (resolved to a UK company number, or overseas) and a statement.
 */
import type { PscRecord } from '../../src/domain/psc.ts';

const BASE: Omit<PscRecord, 'company_number' | 'psc_id' | 'kind' | 'kind_class' | 'content_hash'> = {
  beneficial_owner: false,
  name: null,
  name_elements: null,
  natures_of_control: [],
  notified_on: '2016-04-06',
  ceased_on: null,
  ceased: false,
  birth_year: null,
  birth_month: null,
  nationality: null,
  country_of_residence: null,
  identification: null,
  statement: null,
  registered_company_number: null,
  country: null,
  overseas: false,
  person_key: null,
  data: {},
};

export function individualPsc(
  companyNumber: string,
  person: { forename: string; surname: string; birthYear: number; birthMonth: number; id?: string },
  more: Partial<PscRecord> = {},
): PscRecord {
  const name = `${person.forename} ${person.surname}`;
  return {
    ...BASE,
    company_number: companyNumber,
    psc_id: person.id ?? `ind-${person.forename}-${person.surname}`.toLowerCase(),
    kind: 'individual-person-with-significant-control',
    kind_class: 'individual',
    name: `Mr ${name}`,
    name_elements: { title: 'Mr', forename: person.forename, middle_name: null, surname: person.surname },
    natures_of_control: ['ownership-of-shares-75-to-100-percent'],
    birth_year: person.birthYear,
    birth_month: person.birthMonth,
    nationality: 'British',
    country_of_residence: 'England',
    person_key: `individual|${name.toLowerCase()}|${person.birthYear}|${person.birthMonth}`,
    content_hash: `${companyNumber}-${name}`,
    data: { kind: 'individual-person-with-significant-control', name: `Mr ${name}` },
    ...more,
  };
}

/** A corporate PSC: UK (resolvable) when `registeredNumber` is given, else overseas in `country`. */
export function corporatePsc(
  companyNumber: string,
  parent: { name: string; registeredNumber?: string; country?: string; id?: string },
  more: Partial<PscRecord> = {},
): PscRecord {
  const uk = parent.registeredNumber !== undefined;
  return {
    ...BASE,
    company_number: companyNumber,
    psc_id: parent.id ?? `corp-${parent.name}`.toLowerCase().replace(/\W+/g, '-'),
    kind: 'corporate-entity-person-with-significant-control',
    kind_class: 'corporate',
    name: parent.name,
    natures_of_control: ['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'],
    identification: {
      legal_authority: uk ? 'Companies Act 2006' : 'Delaware General Corporation Law',
      legal_form: uk ? 'Private Limited Company' : 'Corporation',
      place_registered: uk ? 'Companies House' : 'Delaware Secretary of State',
      registration_number: parent.registeredNumber ?? '7654321',
      country_registered: uk ? 'England' : (parent.country ?? 'United States'),
    },
    registered_company_number: parent.registeredNumber ?? null,
    country: uk ? 'England' : (parent.country ?? 'United States'),
    overseas: !uk,
    person_key: `corporate|${parent.name.toLowerCase()}||`,
    content_hash: `${companyNumber}-${parent.name}`,
    data: { kind: 'corporate-entity-person-with-significant-control', name: parent.name },
    ...more,
  };
}

export function pscStatement(companyNumber: string, statement: string, more: Partial<PscRecord> = {}): PscRecord {
  return {
    ...BASE,
    company_number: companyNumber,
    psc_id: `statement-${statement}`,
    kind: 'persons-with-significant-control-statement',
    kind_class: 'statement',
    statement,
    content_hash: `${companyNumber}-${statement}`,
    data: { kind: 'persons-with-significant-control-statement', statement },
    ...more,
  };
}

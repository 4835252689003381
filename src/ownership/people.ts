/**
 * People search: the document the people index holds of one person with significant control, and
 * what a search asks and answers. Both people adapters store exactly this.
 */
import type { PscKindClass, PscNameElements } from './psc.ts';

export interface PersonCompany {
  company_number: string;
  company_name: string | null;
  natures_of_control: string[];
  notified_on: string | null;
  ceased: boolean;
}

export interface PersonDocument {
  person_key: string;
  kind_class: PscKindClass;
  name: string;
  name_elements: PscNameElements | null;
  birth_year: number | null;
  birth_month: number | null;
  nationality: string | null;
  country_of_residence: string | null;
  companies: PersonCompany[];
}

export interface PeopleQuery {
  name: string;
  birth_year?: number;
  birth_month?: number;
  limit: number;
}

export interface PeoplePage {
  total: number;
  people: PersonDocument[];
}

export interface PeopleIndex {
  upsertPeople(documents: readonly PersonDocument[]): Promise<void>;
  /** Remove people no record names any more. */
  removePeople(personKeys: readonly string[]): Promise<void>;
  refresh(): Promise<void>;
  count(): Promise<number>;
  /** Replace the whole index without downtime; returns how many were indexed. */
  rebuild(batches: AsyncIterable<readonly PersonDocument[]>): Promise<number>;
  outdated(): Promise<boolean>;
  searchPeople(query: PeopleQuery): Promise<PeoplePage>;
}

/**
 * A company as the register describes it (the BasicCompanyData snapshot), in the contract's terms.
 */

export interface Address {
  care_of: string | null;
  po_box: string | null;
  line_1: string | null;
  line_2: string | null;
  post_town: string | null;
  county: string | null;
  country: string | null;
  postcode: string | null;
}

interface PreviousName {
  name: string;
  /** ISO date of the change. */
  changed: string | null;
}

export interface RegisterCompany {
  company_number: string;
  name: string;
  status: string;
  type: string;
  incorporated: string | null;
  dissolved: string | null;
  country_of_origin: string | null;
  accounts_ref_day: number | null;
  accounts_ref_month: number | null;
  accounts_category: string | null;
  accounts_last_made_up_to: string | null;
  accounts_next_due: string | null;
  confirmation_last_made_up_to: string | null;
  confirmation_next_due: string | null;
  charges_total: number;
  charges_outstanding: number;
  charges_part_satisfied: number;
  charges_satisfied: number;
  /** "62020 - Information technology consultancy activities" */
  sic_codes: string[];
  address: Address;
  previous_names: PreviousName[];
}

/**
 * A stored PSC record as answers show it: a controller (kind, name, natures in words, bands, the
 * controlling company when resolved; for an individual only nationality, residence, and month
 * and year of birth), or a statement in words. Shared by the lookups' `controllers` and the
 * ownership graph, so that both say the same thing of the same record.
 */
import type { ControlBands } from './natures.ts';
import { controlBand, naturesInWords, readableCode, statementMeaning } from './natures.ts';
import type { PscKindClass, StoredPsc } from '../domain/psc.ts';
import { readIdentityVerification } from '../domain/officers.ts';
import type { IdentityVerification } from '../domain/officers.ts';

interface ControllerView {
  kind: string;
  kind_class: PscKindClass;
  name: string | null;
  natures_of_control: { code: string; words: string }[];
  bands: ControlBands;
  notified_on: string | null;
  ceased_on?: string | null;
  nationality: string | null;
  country_of_residence: string | null;
  birth_year: number | null;
  birth_month: number | null;
  company_number: string | null;
  company_name: string | null;
  registration_number: string | null;
  country: string | null;
  overseas: boolean | null;
  beneficial_owner: boolean;
  /** `identity_verification_details` as filed (or under its older name); null when none is. */
  identity_verification: IdentityVerification | null;
}

interface StatementView {
  statement: string | null;
  words: string;
  notified_on: string | null;
  ceased_on?: string | null;
}

/** A company's PSCs as an answer lists them: the controllers, and the statements. */
export interface CompanyControl {
  controllers: ControllerView[];
  psc_statements: StatementView[];
}

/** A statement or an exemption record: its code and its words. */
export function statementWords(psc: Pick<StoredPsc, 'kind_class' | 'statement' | 'data'>): {
  statement: string | null;
  words: string;
} {
  if (psc.kind_class === 'exemption') {
    const exemptions = psc.data.exemptions;
    const codes =
      typeof exemptions === 'object' && exemptions !== null && !Array.isArray(exemptions)
        ? Object.keys(exemptions)
        : [];
    const statement = codes.length > 0 ? codes.join(', ') : null;
    return {
      statement,
      words: `exempt from keeping a PSC register${codes.length > 0 ? ` (${codes.map(readableCode).join('; ')})` : ''}`,
    };
  }
  if (psc.statement === null) return { statement: null, words: 'a statement without its code' };
  return { statement: psc.statement, words: statementMeaning(psc.statement).words };
}

/** When a ceased record ceased: as filed, else the first snapshot that no longer listed it; null if current. */
function ceasedOn(psc: StoredPsc): string | null {
  return psc.ceased ? (psc.ceased_on ?? psc.ceased_by_snapshot) : null;
}

const isStatement = (psc: StoredPsc) => psc.kind_class === 'statement' || psc.kind_class === 'exemption';

/**
 * The records of one company as controllers and statements, in the order given. `withCeased`
 * adds each entry's `ceased_on` (null when current). An individual's address and day of birth are
 * not stored at all, so cannot appear; only the fields listed here are shown.
 */
export function companyControl(pscs: readonly StoredPsc[], withCeased: boolean): CompanyControl {
  const controllers: ControllerView[] = [];
  const statements: StatementView[] = [];
  for (const psc of pscs) {
    const ceased = withCeased ? { ceased_on: ceasedOn(psc) } : {};
    if (isStatement(psc)) {
      statements.push({ ...statementWords(psc), notified_on: psc.notified_on, ...ceased });
      continue;
    }
    const entity = psc.kind_class === 'corporate' || psc.kind_class === 'legal_person';
    controllers.push({
      kind: psc.kind,
      kind_class: psc.kind_class,
      name: psc.name,
      natures_of_control: naturesInWords(psc.natures_of_control),
      bands: controlBand(psc.natures_of_control),
      notified_on: psc.notified_on,
      ...ceased,
      nationality: psc.nationality,
      country_of_residence: psc.country_of_residence,
      birth_year: psc.birth_year,
      birth_month: psc.birth_month,
      company_number: psc.resolved_company_number,
      company_name: psc.resolved_company_name,
      registration_number: entity ? (psc.identification?.registration_number ?? null) : null,
      country: entity ? psc.country : null,
      overseas: entity ? psc.overseas : null,
      beneficial_owner: psc.beneficial_owner,
      identity_verification: pscIdentityVerification(psc),
    });
  }
  return { controllers, psc_statements: statements };
}

/**
 * A PSC's identity verification, read from its record as filed: the snapshot and the streams keep
 * `identity_verification_details` (or the older `verification_details`) in `data`.
 */
export function pscIdentityVerification(psc: Pick<StoredPsc, 'data'>): IdentityVerification | null {
  return readIdentityVerification(psc.data);
}

/** A PSC's kind in words: "individual", "corporate entity (beneficial owner)", "super-secure PSC". */
export function kindWords(kindClass: PscKindClass, kind: string, beneficialOwner: boolean): string {
  const words: Record<PscKindClass, string> = {
    individual: 'individual',
    corporate: 'corporate entity',
    legal_person: 'legal person',
    super_secure: 'super-secure PSC (details withheld)',
    statement: 'statement',
    exemption: 'exemption',
    other: readableCode(kind),
  };
  return `${words[kindClass]}${beneficialOwner ? ' (beneficial owner)' : ''}`;
}

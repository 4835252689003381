/**
 * A company's officers as answers show them: the view of a stored appointment (never its address,
 * never the whole filed record) and the Markdown section of get_officers and the lookup, every
 * value from the register escaped.
 */
import type * as z from 'zod';
import { monthName } from '../domain/calendar-date.ts';
import type { StoredOfficer } from '../domain/officers.ts';
import { verificationWords } from '../domain/officers.ts';
import { facts, literal, markup, table } from './markdown.ts';
import type { officerOutput, officerSummaryOutput } from './outputs.ts';

type Officer = z.infer<typeof officerOutput>;
/**
 * The lookup's officers leave out identity verification, disqualification and the count of other
 * appointments (get_officers has them).
 */
type ShownOfficer = z.infer<typeof officerSummaryOutput> & Partial<Officer> & { other_appointments?: number };

/** The lookup's view of an appointment. */
export function officerSummary(stored: StoredOfficer): z.infer<typeof officerSummaryOutput> {
  const { identity_verification: _identity, disqualified_until: _disqualified, ...summary } = officerView(stored);
  return summary;
}

/** An appointment as answers show it (never the address, never the whole filed record). */
export function officerView(stored: StoredOfficer): Officer {
  return {
    name: stored.name,
    role: stored.role,
    appointed_on: stored.appointed_on,
    resigned_on: stored.resigned_on,
    nationality: stored.nationality,
    occupation: stored.occupation,
    country_of_residence: stored.country_of_residence,
    birth_year: stored.birth_year,
    birth_month: stored.birth_month,
    officer_id: stored.officer_id,
    identity_verification: stored.identity_verification,
    disqualified_until: stored.disqualified_until,
  };
}

function born(o: ShownOfficer): string | null {
  if (o.birth_year === null) return null;
  return `${o.birth_month === null ? '' : `${monthName(o.birth_month, 'short')} `}${o.birth_year}`;
}

/** The officers section of get_officers and the lookup: a table, every value from the register escaped. */
export function renderOfficers(officers: readonly ShownOfficer[], withResigned: boolean): string {
  const parts = [`## Officers${withResigned ? ' (current and resigned)' : ''}`];
  if (officers.length === 0) {
    parts.push(`_No ${withResigned ? '' : 'current '}officers are held for this company._`);
    return parts.join('\n\n');
  }
  const withIdentity = officers.some((o) => o.identity_verification !== undefined);
  const withElsewhere = officers.some((o) => o.other_appointments !== undefined);
  parts.push(
    table(
      [
        'Name',
        'Role',
        'Appointed',
        ...(withResigned ? ['Resigned'] : []),
        'Nationality',
        'Occupation',
        'Country of residence',
        'Born',
        ...(withIdentity ? ['Identity'] : []),
        ...(withElsewhere ? ['Other appointments', 'Officer id'] : []),
      ],
      officers.map((o) => [
        markup(`${literal(o.name)}${o.disqualified_until ? ` (**disqualified until ${o.disqualified_until}**)` : ''}`),
        o.role,
        o.appointed_on,
        ...(withResigned ? [o.resigned_on ?? 'current'] : []),
        o.nationality,
        o.occupation,
        o.country_of_residence,
        born(o),
        ...(withIdentity ? [verificationWords(o.identity_verification ?? null)] : []),
        ...(withElsewhere ? [o.other_appointments, o.officer_id] : []),
      ]),
    ),
  );
  const counted = officers.filter((o) => o.resigned_on === null).length;
  parts.push(facts([['Current officers', counted]]));
  return parts.join('\n\n');
}

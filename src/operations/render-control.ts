/**
 * Who controls a company, in Markdown: the "Persons with significant control" section of the
 * lookups, a row per controller (natures in words) and per statement.
 */
import { monthName } from '../domain/calendar-date.ts';
import { verificationWords } from '../domain/officers.ts';
import { kindWords } from '../ownership/psc-view.ts';
import type { ProfileControl } from './company-profile.ts';
import { table } from './markdown.ts';

type Controller = ProfileControl['controllers'][number];

/** What identifies a controller beyond its name: never an address, never a day of birth. */
export function controllerDetails(c: Controller): string {
  const born =
    c.birth_year === null
      ? null
      : `born ${c.birth_month === null ? '' : `${monthName(c.birth_month, 'short')} `}${c.birth_year}`;
  return [
    c.company_number && `company ${c.company_number}${c.company_name ? ` (${c.company_name})` : ''}`,
    c.company_number === null && c.registration_number && `registration ${c.registration_number}`,
    c.country && `${c.country}${c.overseas ? ' (overseas)' : ''}`,
    c.nationality,
    c.country_of_residence && `lives in ${c.country_of_residence}`,
    born,
    identityWords(c.identity_verification),
  ]
    .filter(Boolean)
    .join('; ');
}

function identityWords(verification: Controller['identity_verification']): string | null {
  const words = verificationWords(verification);
  return words && `identity ${words}`;
}

export function renderControl({ controllers, psc_statements }: ProfileControl): string {
  const parts = ['## Persons with significant control'];
  if (controllers.length === 0 && psc_statements.length === 0) {
    parts.push('_No PSC records are held for this company._');
    return parts.join('\n\n');
  }
  // Ceased ones are listed only when asked; then each row says whether and when.
  const withCeased = [...controllers, ...psc_statements].some((entry) => entry.ceased_on !== undefined);
  const ceased = (entry: { ceased_on?: string | null }) => (withCeased ? [entry.ceased_on ?? 'current'] : []);
  if (controllers.length > 0)
    parts.push(
      table(
        ['Name', 'Kind', 'Control', 'Notified', ...(withCeased ? ['Ceased'] : []), 'Details'],
        controllers.map((c) => [
          c.name ?? '(withheld)',
          kindWords(c.kind_class, c.kind, c.beneficial_owner),
          c.natures_of_control.map((n) => n.words).join('; '),
          c.notified_on,
          ...ceased(c),
          controllerDetails(c),
        ]),
      ),
    );
  if (psc_statements.length > 0)
    parts.push(
      '**Statements:**',
      table(
        ['Statement', 'Notified', ...(withCeased ? ['Ceased'] : [])],
        psc_statements.map((s) => [s.words, s.notified_on, ...ceased(s)]),
      ),
    );
  return parts.join('\n\n');
}

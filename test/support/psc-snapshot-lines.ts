/**
 * Lines of a PSC snapshot in the real format, written by hand for loader tests that need exact
 * control over what each line says (which PSC, which name, which line is broken), and the files
 * that hold them, named and zipped as Companies House publishes them. The generator
 * (src/synthetic/psc-snapshot.ts) writes whole realistic snapshots; these are the small ones.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeZip } from './zip.ts';

/** An individual PSC's line: `id` is the last segment of its self link. */
export function individualLine(
  companyNumber: string,
  id: string,
  more: { forename?: string; surname?: string; ceased_on?: string; etag?: string } = {},
): string {
  const forename = more.forename ?? 'Ada';
  const surname = more.surname ?? `Person${id}`;
  return JSON.stringify({
    company_number: companyNumber,
    data: {
      address: { address_line_1: '1 High Street', locality: 'London', postal_code: 'EC1A 1AA', premises: '1' },
      ...(more.ceased_on ? { ceased_on: more.ceased_on } : {}),
      country_of_residence: 'England',
      date_of_birth: { month: 3, year: 1970 },
      etag: more.etag ?? `etag-${companyNumber}-${id}-${forename}-${surname}`,
      kind: 'individual-person-with-significant-control',
      links: { self: `/company/${companyNumber}/persons-with-significant-control/individual/${id}` },
      name: `Ms ${forename} ${surname}`,
      name_elements: { forename, surname, title: 'Ms' },
      nationality: 'British',
      natures_of_control: ['ownership-of-shares-75-to-100-percent'],
      notified_on: '2016-04-06',
    },
  });
}

export function statementLine(companyNumber: string, id: string): string {
  return JSON.stringify({
    company_number: companyNumber,
    data: {
      etag: `etag-${companyNumber}-${id}`,
      kind: 'persons-with-significant-control-statement',
      links: { self: `/company/${companyNumber}/persons-with-significant-control-statements/${id}` },
      notified_on: '2017-01-01',
      statement: 'no-individual-or-entity-with-signficant-control',
    },
  });
}

export function totalsLine(pscs: number, statements = 0): string {
  return JSON.stringify({
    data: {
      kind: 'totals#persons-of-significant-control-snapshot',
      persons_of_significant_control_count: pscs,
      statements_count: statements,
      exemptions_count: 0,
      generated_at: '2026-01-05T03:43:03Z',
    },
  });
}

/**
 * Write `lines` as the snapshot file `name` in `dir`: a `.zip` holds them as one `.txt` member
 * of the same base name (as the parts are published), anything else is the text itself.
 */
export async function writeSnapshotFile(dir: string, name: string, lines: readonly string[]): Promise<string> {
  const path = join(dir, name);
  const text = Buffer.from(lines.map((line) => `${line}\n`).join(''));
  if (name.endsWith('.zip')) await writeZip(path, { [name.replace(/\.zip$/, '.txt')]: text });
  else writeFileSync(path, text);
  return path;
}

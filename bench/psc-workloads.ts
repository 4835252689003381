/**
 * What bench/psc asks of the ownership endpoints: arguments drawn with fixed seeds from the PSC
 * register in the benchmark database, as callers would send them.
 */
import type { Sql } from '../src/ports/sql.ts';

export interface OwnershipSamples {
  numbers: string[];
  mix: Record<string, number>;
}

/**
 * Companies whose walk does real work, and some that are just any company: companies controlled
 * by a company on the register (a chain up), companies that control others (a tree down), and
 * companies drawn from the whole register (most have only individuals or nothing above them).
 */
export async function drawOwnershipSamples(sql: Sql): Promise<OwnershipSamples> {
  const controlled = await sql.query<{ n: string }>(
    `SELECT DISTINCT company_number AS n FROM psc TABLESAMPLE SYSTEM (5) REPEATABLE (14)
     WHERE registered_company_number IS NOT NULL AND NOT ceased LIMIT 4000`,
  );
  const parents = await sql.query<{ n: string }>(
    `SELECT DISTINCT registered_company_number AS n FROM psc TABLESAMPLE SYSTEM (5) REPEATABLE (15)
     WHERE registered_company_number IS NOT NULL AND NOT ceased LIMIT 4000`,
  );
  const any = await sql.query<{ n: string }>(
    `SELECT company_number AS n FROM companies TABLESAMPLE SYSTEM (0.2) REPEATABLE (16) LIMIT 2000`,
  );
  const numbers = interleave([controlled.rows, parents.rows, any.rows].map((rows) => rows.map((r) => r.n)));
  return {
    numbers,
    mix: { controlled_by_a_company: controlled.rowCount, controlling_companies: parents.rowCount, any: any.rowCount },
  };
}

export interface PeopleSamples {
  names: string[];
}

/**
 * Names as people type them, from the PSCs on the register: whole names, surnames, a forename and
 * the start of a surname, the start of a surname alone, and some corporate PSCs' names.
 */
export async function drawPeopleSamples(sql: Sql): Promise<PeopleSamples> {
  const individuals = await sql.query<{ name: string; forename: string | null; surname: string | null }>(
    `SELECT name, name_elements->>'forename' AS forename, name_elements->>'surname' AS surname
     FROM psc TABLESAMPLE SYSTEM (0.5) REPEATABLE (17) WHERE kind_class = 'individual' AND name IS NOT NULL LIMIT 8000`,
  );
  const corporates = await sql.query<{ name: string }>(
    `SELECT name FROM psc TABLESAMPLE SYSTEM (1) REPEATABLE (18)
     WHERE kind_class IN ('corporate', 'legal_person') AND name IS NOT NULL LIMIT 1000`,
  );
  const names: string[] = [];
  for (const [i, person] of individuals.rows.entries()) {
    const surname = person.surname ?? person.name.split(/\s+/).at(-1)!;
    const forename = person.forename ?? person.name.split(/\s+/)[0]!;
    switch (i % 5) {
      case 0:
        names.push(person.name);
        break;
      case 1:
        names.push(`${forename} ${surname}`);
        break;
      case 2:
        names.push(surname);
        break;
      case 3:
        names.push(`${forename} ${surname.slice(0, 3)}`);
        break;
      default:
        names.push(surname.slice(0, 3 + (i % 3)));
    }
    const corporate = corporates.rows[i % Math.max(1, corporates.rowCount)];
    if (i % 10 === 9 && corporate) names.push(corporate.name);
  }
  return { names };
}

/** One of each kind in turn, so that every stretch of the run has the same mix. */
function interleave(lists: string[][]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(...lists.map((l) => l.length)); i++)
    for (const list of lists) if (list[i]) out.push(list[i]!);
  return out;
}

/** Scatter the draws: request i asks for sample `pick(i)`, the same in every run. */
function pick(i: number, length: number): number {
  let x = Math.imul(i + 1, 2654435761);
  x = Math.imul(x ^ (x >>> 15), 2246822519);
  x ^= x >>> 13;
  return (x >>> 0) % length;
}

export function ownershipRequests(samples: OwnershipSamples): (i: number) => string {
  return (i) =>
    `/v1/ownership?number=${samples.numbers[pick(i, samples.numbers.length)]}&direction=both&depth=5&format=json`;
}

export function peopleRequests(samples: PeopleSamples): (i: number) => string {
  return (i) =>
    `/v1/search-people?name=${encodeURIComponent(samples.names[pick(i, samples.names.length)]!)}&format=json`;
}

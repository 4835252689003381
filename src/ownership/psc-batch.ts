/**
 * How a batch of PSC records travels to the PSC store's upsertSerialisedPscs: serialised once, in
 * the worker thread that parses the lines (loaders/psc-lines-worker.ts), as COPY text (PostgreSQL)
 * or one JSON array (PGlite), whichever the store's `batchFormat` names. Pure: it is the format of
 * the port, shared by the loader that writes it and the adapter that reads it.
 */
import type { PscRecord } from '../domain/psc.ts';

/** How a store wants a batch serialised: COPY text (PostgreSQL) or a JSON array (PGlite). */
export type PscBatchFormat = 'copy' | 'json';

/** The columns a batch fills, in the order of the INSERTs and of a COPY line. */
export const PSC_COLUMN_NAMES = [
  'company_number',
  'psc_id',
  'kind',
  'kind_class',
  'beneficial_owner',
  'name',
  'name_elements',
  'natures',
  'notified_on',
  'ceased_on',
  'ceased',
  'birth_year',
  'birth_month',
  'nationality',
  'country_of_residence',
  'identification',
  'statement',
  'registered_company_number',
  'country',
  'overseas',
  'person_key',
  'content_hash',
  'data',
] as const satisfies readonly (keyof PscRow)[];

/**
 * A batch of records as the store's upsert reads it: COPY text, a line a row, or one JSON array.
 * One INSERT … ON CONFLICT cannot touch a row twice, so a PSC repeated in the batch keeps its last
 * copy. Pure.
 */
export function serialisePscs(records: readonly PscRecord[], format: PscBatchFormat): string {
  const byKey = new Map(records.map((record) => [`${record.company_number}\u0000${record.psc_id}`, record]));
  const rows = [...byKey.values()].map(pscJson);
  return format === 'json' ? JSON.stringify(rows) : rows.map(copyLine).join('');
}

/** A row as a line of COPY's text format, fields in PSC_COLUMN_NAMES order. */
function copyLine(row: PscRow): string {
  const fields = PSC_COLUMN_NAMES.map((column) =>
    column === 'natures' ? copyText(arrayLiteral(row.natures)) : copyField(row[column]),
  );
  return `${fields.join('\t')}\n`;
}

function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return copyText(value);
  return copyText(JSON.stringify(value));
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Backslash, newline, carriage return and tab escaped as COPY's text format reads them. */
function copyText(text: string): string {
  return /[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, (c) => COPY_ESCAPES[c]!) : text;
}

/** A text[] literal: every element quoted, its quotes and backslashes escaped. */
function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

type PscRow = ReturnType<typeof pscJson>;

function pscJson(record: PscRecord) {
  return {
    company_number: record.company_number,
    psc_id: record.psc_id,
    kind: record.kind,
    kind_class: record.kind_class,
    beneficial_owner: record.beneficial_owner,
    name: record.name,
    name_elements: record.name_elements,
    natures: record.natures_of_control,
    notified_on: record.notified_on,
    ceased_on: record.ceased_on,
    ceased: record.ceased,
    birth_year: record.birth_year,
    birth_month: record.birth_month,
    nationality: record.nationality,
    country_of_residence: record.country_of_residence,
    identification: record.identification,
    statement: record.statement,
    registered_company_number: record.registered_company_number,
    country: record.country,
    overseas: record.overseas,
    person_key: record.person_key,
    content_hash: record.content_hash,
    data: record.data,
  };
}

/**
 * The appliers of the `officers` and `disqualified-officers` streams (src/ports/stream-appliers.ts).
 * An officers event's resource_uri names the company and the appointment
 * (`/company/{number}/appointments/{id}`) and its data is the appointment as the Public Data API
 * serves it; a disqualified-officers event's names the officer (`/disqualified-officers/natural/{id}`)
 * and its data is the disqualified officer. Each event is written only when newer than what is
 * stored, by its own published_at and timepoint (officer-writes.ts), so a repeat or a late older
 * event changes nothing. An event that cannot be read is skipped, changing nothing, and told to
 * `onSkip` (with the reason) so that the follower can count and log it; it never stops the stream.
 */
import { appointmentPath, publishedInstant, readDisqualifiedOfficer, readOfficer } from '../../domain/officers.ts';
import type { AppliedEvents, StreamApplier, StreamEvent } from '../../ports/stream-appliers.ts';
import { writeDisqualifications, writeOfficers } from './officer-writes.ts';
import type { DisqualificationRow, OfficerRow } from './officer-writes.ts';

export interface ApplierOptions {
  /** Told of each event skipped, and why. */
  onSkip?: (event: StreamEvent, reason: string) => void;
}

function orderOf(event: StreamEvent): { as_of: string; timepoint: number } | string {
  const asOf = publishedInstant(event.event?.published_at);
  if (!asOf) return `published_at ${JSON.stringify(event.event?.published_at)} is not a date-time`;
  const timepoint = event.event.timepoint;
  if (!Number.isSafeInteger(timepoint)) return `timepoint ${JSON.stringify(timepoint)} is not a whole number`;
  return { as_of: asOf, timepoint };
}

function officerRow(event: StreamEvent): OfficerRow | string {
  const where = appointmentPath(event.resource_uri);
  if (!where) return `resource_uri ${JSON.stringify(event.resource_uri)} is not /company/{number}/appointments/{id}`;
  const order = orderOf(event);
  if (typeof order === 'string') return order;
  if (event.event.type === 'deleted') {
    return {
      ...where,
      officer_id: null,
      name: null,
      role: null,
      appointed_on: null,
      resigned_on: null,
      nationality: null,
      occupation: null,
      country_of_residence: null,
      birth_year: null,
      birth_month: null,
      identity_verification: null,
      data: null,
      deleted: true,
      ...order,
    };
  }
  const record = readOfficer(where.company_number, where.appointment_id, event.data);
  if (typeof record === 'string') return record;
  return { ...record, deleted: false, ...order };
}

/** The applier of the `officers` stream. */
export function createOfficersApplier(options: ApplierOptions = {}): StreamApplier {
  return {
    stream: 'officers',
    async apply(tx, events): Promise<AppliedEvents> {
      const rows: OfficerRow[] = [];
      for (const event of events) {
        const row = officerRow(event);
        if (typeof row === 'string') options.onSkip?.(event, row);
        else rows.push(row);
      }
      return { companies: await writeOfficers(tx, rows) };
    },
  };
}

function disqualificationRow(event: StreamEvent): DisqualificationRow | string {
  const match = /^\/disqualified-officers\/(natural|corporate)\/([^/?#]+)$/.exec(event.resource_uri);
  if (!match)
    return `resource_uri ${JSON.stringify(event.resource_uri)} is not /disqualified-officers/{natural|corporate}/{id}`;
  const order = orderOf(event);
  if (typeof order === 'string') return order;
  const officerId = decodeURIComponent(match[2]!);
  const kind = match[1]!;
  if (event.event.type === 'deleted') {
    return { officer_id: officerId, kind, name: null, disqualifications: null, deleted: true, ...order };
  }
  const read = readDisqualifiedOfficer(officerId, kind, event.data);
  if (typeof read === 'string') return read;
  return { ...read, deleted: false, ...order };
}

/** The applier of the `disqualified-officers` stream. */
export function createDisqualifiedOfficersApplier(options: ApplierOptions = {}): StreamApplier {
  return {
    stream: 'disqualified-officers',
    async apply(tx, events): Promise<AppliedEvents> {
      const rows: DisqualificationRow[] = [];
      for (const event of events) {
        const row = disqualificationRow(event);
        if (typeof row === 'string') options.onSkip?.(event, row);
        else rows.push(row);
      }
      return { companies: await writeDisqualifications(tx, rows) };
    },
  };
}

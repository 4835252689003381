/**
 * The generator's identity verification details: individual PSCs of a snapshot and officers carry
 * them in the shapes Companies House publishes, read by the same readers as the real ones, none
 * before the roll-out, and some people overdue.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isVerificationOverdue, readOfficer } from '../../src/domain/officers.ts';
import type { OfficerRecord } from '../../src/domain/officers.ts';
import { parsePscLine } from '../../src/ownership/psc-line.ts';
import { pscIdentityVerification } from '../../src/ownership/psc-view.ts';
import type { PscRecord } from '../../src/domain/psc.ts';
import { officerItem } from '../../src/synthetic/officers.ts';
import { pscSnapshotLines } from '../../src/synthetic/psc-snapshot.ts';

function individuals(snapshotDate: string): PscRecord[] {
  return [...pscSnapshotLines({ seed: 11, companies: 2000, snapshotDate })]
    .map((line) => parsePscLine(line))
    .flatMap((parsed) => (parsed.type === 'psc' && parsed.record.kind_class === 'individual' ? [parsed.record] : []));
}

test('before the roll-out no PSC carries verification details', () => {
  assert.ok(individuals('2025-06-01').every((r) => r.data.identity_verification_details === undefined));
});

test('a year after it every current individual PSC does, in the three published shapes, some overdue', () => {
  const asOf = '2027-01-01';
  const current = individuals(asOf).filter((r) => !r.ceased);
  assert.ok(current.length > 500, `${current.length} current individuals`);
  const shapes = new Map<string, number>();
  let overdue = 0;
  for (const record of current) {
    const details = record.data.identity_verification_details as Record<string, string> | undefined;
    assert.ok(details, `${record.company_number}/${record.psc_id} has verification details`);
    const shape = Object.keys(details).sort().join(',');
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    const verification = pscIdentityVerification(record);
    assert.ok(verification, 'read by the domain reader');
    if (isVerificationOverdue(verification, asOf)) overdue++;
  }
  assert.deepEqual([...shapes.keys()].sort(), [
    'appointment_verification_start_on',
    'appointment_verification_start_on,authorised_corporate_service_provider_name,identity_verified_on',
    'appointment_verification_statement_date,appointment_verification_statement_due_on',
  ]);
  // One in five never verifies.
  assert.ok(
    overdue > current.length * 0.1 && overdue < current.length * 0.3,
    `${overdue} of ${current.length} overdue`,
  );
});

test('officers carry the same story when asked, read by readOfficer', () => {
  const plans = Array.from({ length: 200 }, (_, personId) => ({
    companyNumber: '30000001',
    personId,
    appointedOn: '2020-01-01',
    verificationAsOf: '2027-01-01',
  }));
  const records = plans.map((plan, i) => readOfficer('30000001', `a${i}`, officerItem(3, plan)) as OfficerRecord);
  assert.ok(records.every((r) => r.identity_verification !== null));
  const overdue = records.filter((r) => isVerificationOverdue(r.identity_verification, '2027-01-01')).length;
  assert.ok(overdue > 10 && overdue < 70, `${overdue} of 200 overdue`);
  // Without verificationAsOf, as before: no block.
  assert.equal(
    (officerItem(3, { ...plans[0]!, verificationAsOf: undefined }) as Record<string, unknown>)
      .identity_verification_details,
    undefined,
  );
});

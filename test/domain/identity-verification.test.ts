import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IdentityVerification } from '../../src/domain/officers.ts';
import {
  earliestOverdueFrom,
  isVerificationOverdue,
  overdueVerifications,
  readIdentityVerification,
  verificationOverdueFrom,
} from '../../src/domain/officers.ts';
import { companySignals, withIdentitySignal } from '../../src/domain/signals.ts';
import { identityVerification } from '../support/officer-records.ts';

// The three shapes Companies House publishes, and what is not a block at all.
const cases: { name: string; verification: IdentityVerification | null; asOf: string; overdue: boolean }[] = [
  { name: 'no block: nothing asked', verification: null, asOf: '2026-11-27', overdue: false },
  {
    name: 'not yet verified, due date passed',
    verification: identityVerification({
      appointment_verification_statement_date: '2026-09-11',
      appointment_verification_statement_due_on: '2026-09-25',
    }),
    asOf: '2026-11-27',
    overdue: true,
  },
  {
    name: 'not yet verified, on the due date itself: not yet overdue',
    verification: identityVerification({ appointment_verification_statement_due_on: '2026-11-27' }),
    asOf: '2026-11-27',
    overdue: false,
  },
  {
    name: 'not yet verified, the day after the due date: overdue',
    verification: identityVerification({ appointment_verification_statement_due_on: '2026-11-26' }),
    asOf: '2026-11-27',
    overdue: true,
  },
  {
    name: 'verified through an ACSP, past the due date',
    verification: identityVerification({
      identity_verified_on: '2026-01-10',
      appointment_verification_start_on: '2026-01-12',
      appointment_verification_statement_due_on: '2026-02-01',
      authorised_corporate_service_provider_name: 'Example Agents Ltd',
    }),
    asOf: '2026-11-27',
    overdue: false,
  },
  {
    name: 'verified directly with Companies House: only the statement date',
    verification: identityVerification({ appointment_verification_start_on: '2026-03-02' }),
    asOf: '2026-11-27',
    overdue: false,
  },
  {
    name: 'a statement supplied after the due date: verified, not overdue',
    verification: identityVerification({
      appointment_verification_start_on: '2026-10-01',
      appointment_verification_statement_due_on: '2026-09-25',
    }),
    asOf: '2026-11-27',
    overdue: false,
  },
  {
    name: 'a block without a due date asks nothing yet',
    verification: identityVerification({ appointment_verification_statement_date: '2026-12-01' }),
    asOf: '2026-11-27',
    overdue: false,
  },
];

for (const c of cases)
  test(`identity verification overdue: ${c.name}`, () =>
    assert.equal(isVerificationOverdue(c.verification, c.asOf), c.overdue));

test('overdue from the day after the due date, across a month and a year end', () => {
  assert.equal(
    verificationOverdueFrom(identityVerification({ appointment_verification_statement_due_on: '2026-02-28' })),
    '2026-03-01',
  );
  assert.equal(
    verificationOverdueFrom(identityVerification({ appointment_verification_statement_due_on: '2026-12-31' })),
    '2027-01-01',
  );
});

test('earliestOverdueFrom: the earliest of the unverified, verified ones passed over', () => {
  assert.equal(
    earliestOverdueFrom([
      identityVerification({ appointment_verification_statement_due_on: '2026-10-01' }),
      identityVerification({
        identity_verified_on: '2026-01-01',
        appointment_verification_statement_due_on: '2026-02-01',
      }),
      null,
      identityVerification({ appointment_verification_statement_due_on: '2026-08-01' }),
    ]),
    '2026-08-02',
  );
  assert.equal(earliestOverdueFrom([null, identityVerification({ identity_verified_on: '2026-01-01' })]), null);
});

test('the block is read under its older name too, and a date that is not one is no date', () => {
  assert.deepEqual(
    readIdentityVerification({ verification_details: { appointment_verification_statement_due_on: '2026-09-25' } }),
    identityVerification({ appointment_verification_statement_due_on: '2026-09-25' }),
  );
  assert.equal(
    readIdentityVerification({
      identity_verification_details: { appointment_verification_statement_due_on: '25/09/2026' },
    }),
    null,
  );
});

test('identity_unverified: medium, naming each overdue person, and sorted among the other signals', () => {
  const overdue = overdueVerifications(
    [
      {
        name: 'Ann Able',
        role: 'director',
        identity_verification: identityVerification({ appointment_verification_statement_due_on: '2026-10-02' }),
      },
      {
        name: 'Bo Best',
        role: 'director',
        identity_verification: identityVerification({ identity_verified_on: '2026-01-01' }),
      },
      {
        name: 'Cy Crane',
        role: 'person with significant control',
        identity_verification: identityVerification({ appointment_verification_statement_due_on: '2026-09-25' }),
      },
    ],
    '2026-11-27',
  );
  assert.deepEqual(
    overdue.map((p) => p.name),
    ['Cy Crane', 'Ann Able'],
  );
  const base = companySignals(
    { status: 'Active', accounts_next_due: null, accounts_last_made_up_to: null, charges_outstanding: 1, accounts: [] },
    '2026-11-27',
  );
  const signals = withIdentitySignal(base, overdue);
  const identity = signals.find((s) => s.code === 'identity_unverified');
  assert.equal(identity?.severity, 'medium');
  assert.equal(
    identity?.message,
    'Identity not verified by its due date: Cy Crane (person with significant control, due 2026-09-25); Ann Able (director, due 2026-10-02).',
  );
  // Medium comes before the low signals (charges, no machine-readable accounts).
  assert.equal(signals[0]!.code, 'identity_unverified');
  assert.deepEqual(withIdentitySignal(base, []), base);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OwnershipFacts, PscSummary } from '../../src/domain/psc-summary.ts';
import { ownershipFacts } from '../../src/domain/psc-summary.ts';

const cases: { name: string; summary: PscSummary | null; want: OwnershipFacts }[] = [
  {
    name: 'no PSC record held: unknown, not none',
    summary: null,
    want: { controller_count: null, has_corporate_parent: null, parent_countries: [] },
  },
  {
    name: 'records held, none current (a statement only, or every PSC ceased)',
    summary: { controllers: 0, parents: [] },
    want: { controller_count: 0, has_corporate_parent: false, parent_countries: [] },
  },
  {
    name: 'individuals only',
    summary: { controllers: 2, parents: [] },
    want: { controller_count: 2, has_corporate_parent: false, parent_countries: [] },
  },
  {
    name: 'a UK parent and an overseas one: every key once, sorted',
    summary: {
      controllers: 3,
      parents: [
        { country: 'England', overseas: false, uk_registered: true },
        { country: 'Jersey', overseas: true, uk_registered: false },
        { country: 'england', overseas: false, uk_registered: true },
      ],
    },
    want: {
      controller_count: 3,
      has_corporate_parent: true,
      parent_countries: ['england', 'jersey', 'overseas', 'united kingdom'],
    },
  },
  {
    name: 'a parent whose country is not said still is a parent',
    summary: { controllers: 1, parents: [{ country: null, overseas: false, uk_registered: false }] },
    want: { controller_count: 1, has_corporate_parent: true, parent_countries: [] },
  },
];

for (const { name, summary, want } of cases) test(name, () => assert.deepEqual(ownershipFacts(summary), want));

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ParentPlace } from '../../src/domain/countries.ts';
import { countryKey, isUnitedKingdomKey, parentCountryKeys } from '../../src/domain/countries.ts';

describe('countryKey: one key for a country however it was typed', () => {
  const cases: { input: string | null; want: string | null }[] = [
    { input: 'Cayman Islands', want: 'cayman islands' },
    { input: '  CAYMAN   islands ', want: 'cayman islands' },
    { input: 'Cayman-Islands', want: 'cayman islands' },
    { input: 'England And Wales', want: 'england and wales' },
    { input: 'England & Wales', want: 'england and wales' },
    { input: 'England&Wales', want: 'england and wales' },
    { input: 'United Kingdom', want: 'united kingdom' },
    { input: 'UK', want: 'united kingdom' },
    { input: 'U.K.', want: 'united kingdom' },
    { input: 'Great Britain', want: 'united kingdom' },
    { input: 'GB', want: 'united kingdom' },
    { input: 'United Kingdom of Great Britain and Northern Ireland', want: 'united kingdom' },
    { input: 'USA', want: 'united states' },
    { input: 'U.S.A.', want: 'united states' },
    { input: 'United States Of America', want: 'united states' },
    { input: 'united states', want: 'united states' },
    { input: 'The Netherlands', want: 'netherlands' },
    { input: 'Holland', want: 'netherlands' },
    { input: 'UAE', want: 'united arab emirates' },
    { input: 'BVI', want: 'british virgin islands' },
    { input: "People's Republic Of China", want: 'peoples republic of china' },
    { input: 'Curaçao', want: 'curacao' },
    { input: 'Delaware', want: 'delaware' },
    { input: 'overseas', want: 'overseas' },
    { input: 'Overseas ', want: 'overseas' },
    { input: '...', want: null },
    { input: '   ', want: null },
    { input: 'The', want: null },
    { input: null, want: null },
  ];
  for (const { input, want } of cases)
    test(`${JSON.stringify(input)} → ${JSON.stringify(want)}`, () => assert.equal(countryKey(input), want));
});

describe('isUnitedKingdomKey: the UK or only parts of it', () => {
  const cases: { key: string; want: boolean }[] = [
    { key: 'united kingdom', want: true },
    { key: 'england', want: true },
    { key: 'england and wales', want: true },
    { key: 'scotland', want: true },
    { key: 'northern ireland', want: true },
    { key: 'wales united kingdom', want: true },
    { key: 'new south wales', want: false },
    { key: 'ireland', want: false },
    { key: 'jersey', want: false },
    { key: 'british virgin islands', want: false },
    { key: 'new england', want: false },
    { key: 'and', want: false },
    { key: 'companies house', want: false },
  ];
  for (const { key, want } of cases) test(`${key}: ${want}`, () => assert.equal(isUnitedKingdomKey(key), want));
});

describe('parentCountryKeys: what parent_country finds a corporate parent by', () => {
  const place = (country: string | null, more: Partial<ParentPlace> = {}): ParentPlace => ({
    country,
    overseas: false,
    uk_registered: false,
    ...more,
  });
  const cases: { name: string; parent: ParentPlace; want: string[] }[] = [
    {
      name: 'England and Wales: the UK, and each part it names',
      parent: place('England And Wales', { uk_registered: true }),
      want: ['england and wales', 'united kingdom', 'england', 'wales'],
    },
    { name: 'Scotland', parent: place('Scotland'), want: ['scotland', 'united kingdom'] },
    {
      name: 'Northern Ireland is not Ireland',
      parent: place('Northern Ireland'),
      want: ['northern ireland', 'united kingdom'],
    },
    { name: 'United Kingdom', parent: place('United Kingdom'), want: ['united kingdom'] },
    {
      name: 'registered on the UK register under another description',
      parent: place('Companies House', { uk_registered: true }),
      want: ['companies house', 'united kingdom'],
    },
    {
      name: 'UK-registered without a country said',
      parent: place(null, { uk_registered: true }),
      want: ['united kingdom'],
    },
    {
      name: 'overseas: its country and overseas',
      parent: place('Cayman Islands', { overseas: true }),
      want: ['cayman islands', 'overseas'],
    },
    { name: 'overseas as a state', parent: place('Delaware', { overseas: true }), want: ['delaware', 'overseas'] },
    { name: 'USA spelt short', parent: place('Usa', { overseas: true }), want: ['united states', 'overseas'] },
    {
      name: 'a place the loader did not judge overseas keeps only its key',
      parent: place('Corporate Body'),
      want: ['corporate body'],
    },
    { name: 'nothing said', parent: place(null), want: [] },
  ];
  for (const { name, parent, want } of cases) test(name, () => assert.deepEqual(parentCountryKeys(parent), want));
});

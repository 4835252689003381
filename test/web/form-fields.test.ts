/**
 * The lead list and market forms (src/web/form-fields.ts), pure: generated from the operations'
 * input schemas, every argument but the cursor is a field of the right kind; a submitted form is
 * read as a REST query is, blanks meaning "any", and a bad value is refused naming its field.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findTriggers } from '../../src/operations/find-triggers.ts';
import { marketStats } from '../../src/operations/market-stats.ts';
import type { Operation } from '../../src/operations/operation.ts';
import { searchCompanies } from '../../src/operations/search-companies.ts';
import { fieldGroups, formFields, labelOf, largestPage, readForm } from '../../src/web/form-fields.ts';

const FORMS: [string, Operation][] = [
  ['search_companies', searchCompanies],
  ['find_triggers', findTriggers],
  ['market_stats', marketStats],
];

for (const [name, operation] of FORMS)
  test(`${name}: the form has a field for every argument of the input schema but the cursor`, () => {
    const arguments_ = Object.keys(operation.input.shape).filter((key) => key !== 'cursor');
    assert.deepEqual(
      formFields(operation).map((field) => field.name),
      arguments_,
    );
    assert.ok(arguments_.length >= 10, `${name} has its filters (${arguments_.length})`);
  });

test('each argument gets the control its schema calls for', () => {
  const fieldsOf = (operation: Operation) => new Map(formFields(operation).map((field) => [field.name, field]));
  const search = fieldsOf(searchCompanies);
  const triggers = fieldsOf(findTriggers);
  const market = fieldsOf(marketStats);
  const cases = [
    { field: search.get('status'), want: { kind: 'choice', default: 'active', required: false } },
    { field: triggers.get('trigger'), want: { kind: 'choice', required: true } },
    { field: search.get('min_net_assets'), want: { kind: 'number', integer: false } },
    { field: search.get('min_controller_count'), want: { kind: 'number', integer: true, min: 0, max: 100_000 } },
    { field: search.get('limit'), want: { kind: 'number', integer: true, min: 1, max: 50, default: 20 } },
    { field: search.get('incorporated_from'), want: { kind: 'date' } },
    { field: search.get('insolvency_proxy'), want: { kind: 'yes-no' } },
    { field: search.get('post_town'), want: { kind: 'text', maxLength: 100 } },
    { field: search.get('size_class'), want: { kind: 'choice', otherNameOf: 'size' } },
    { field: search.get('sort_by'), want: { kind: 'choice', otherNameOf: 'sort' } },
    { field: market.get('group_by'), want: { kind: 'choice', required: false } },
  ];
  for (const { field, want } of cases) {
    assert.ok(field, JSON.stringify(want));
    for (const [key, value] of Object.entries(want))
      assert.deepEqual((field as unknown as Record<string, unknown>)[key], value, `${field.name}.${key}`);
    assert.ok(field.hint.length > 0, `${field.name} has a hint from its description`);
  }
  const trigger = triggers.get('trigger');
  assert.equal(trigger?.kind, 'choice');
  assert.deepEqual(trigger.options.slice(0, 2), ['cash_rich', 'rapid_growth']);
});

test('labels read as plain words, never the API name', () => {
  const cases = [
    ['min_net_assets', 'Net assets at least (£)'],
    ['max_employees', 'Employees at most (people)'],
    ['min_total_assets', 'Total assets less current liabilities at least (£)'],
    ['max_controller_count', 'People with significant control, at most'],
    ['incorporated_from', 'Incorporated on or after'],
    ['post_town', 'Town of the registered office'],
    ['sic', 'Industry'],
    ['turnover_trend', 'Turnover on the period before'],
    ['min_turnover_growth', 'Turnover growth at least (%)'],
    ['max_net_assets_growth', 'Net assets growth at most (%)'],
  ];
  for (const field of formFields(searchCompanies)) assert.doesNotMatch(field.label, /_/, field.name);
  for (const [name, want] of cases) assert.equal(labelOf(name!), want);
});

test('a list is read through the cursor in pages of the largest limit', () => {
  assert.equal(largestPage(searchCompanies), 50);
  assert.equal(largestPage(findTriggers), 50);
  assert.throws(() => largestPage(marketStats), /no bounded limit/);
});

test('a submitted form: blanks mean any, numbers and yes/no are read, page parameters set aside', () => {
  const read = readForm(
    searchCompanies,
    { status: '', post_town: 'LEEDS', min_cash: '1000', insolvency_proxy: 'false', sort: '', start: '51' },
    ['start'],
  );
  assert.ok(read.ok);
  assert.equal(read.input.status, 'active');
  assert.equal(read.input.post_town, 'LEEDS');
  assert.equal(read.input.min_cash, 1000);
  assert.equal(read.input.insolvency_proxy, false);
  assert.equal(read.input.limit, 20);
  assert.deepEqual(read.values, { post_town: 'LEEDS', min_cash: '1000', insolvency_proxy: 'false' });
});

test('a bad form is refused naming its field, in the API words', () => {
  const cases: { operation: Operation; query: Record<string, string | string[]>; field: string; message: RegExp }[] = [
    {
      operation: searchCompanies,
      query: { min_cash: 'lots' },
      field: 'min_cash',
      message: /^Invalid "min_cash": must be a number\.$/,
    },
    { operation: searchCompanies, query: { colour: 'red' }, field: 'colour', message: /^Unknown parameter "colour"/ },
    { operation: searchCompanies, query: { sic: ['62', '63'] }, field: 'sic', message: /given more than once/ },
    {
      operation: searchCompanies,
      query: { min_turnover: '10', max_turnover: '5' },
      field: 'min_turnover',
      message: /greater than max_turnover/,
    },
    {
      operation: searchCompanies,
      query: { incorporated_from: '2024-02-30' },
      field: 'incorporated_from',
      message: /real calendar date/,
    },
    {
      operation: searchCompanies,
      query: { post_town: 'LEE\u0000DS' },
      field: 'post_town',
      message: /control characters/,
    },
    {
      operation: findTriggers,
      query: { post_town: 'LEEDS' },
      field: 'trigger',
      message: /^Missing required parameter "trigger": one of cash_rich/,
    },
    { operation: findTriggers, query: { trigger: 'rich' }, field: 'trigger', message: /must be one of cash_rich/ },
    { operation: marketStats, query: { group_by: 'colour' }, field: 'group_by', message: /must be one of/ },
  ];
  for (const { operation, query, field, message } of cases) {
    const read = readForm(operation, query);
    assert.equal(read.ok, false, JSON.stringify(query));
    if (read.ok) continue;
    assert.equal(read.field, field, JSON.stringify(query));
    assert.match(read.message, message);
  }
});

test('fieldsets hold every field once, the accounts filters where nothing else claims them', () => {
  for (const [name, operation] of FORMS) {
    const fields = formFields(operation);
    const groups = fieldGroups(fields);
    assert.deepEqual(groups.flatMap((g) => g.fields.map((f) => f.name)).sort(), fields.map((f) => f.name).sort(), name);
  }
  const legendOf = (operation: Operation, field: string) =>
    fieldGroups(formFields(operation)).find((g) => g.fields.some((f) => f.name === field))?.legend;
  assert.equal(legendOf(findTriggers, 'trigger'), 'Trigger');
  assert.equal(legendOf(searchCompanies, 'post_town'), 'Register');
  assert.equal(legendOf(searchCompanies, 'min_turnover'), 'Latest filed accounts');
  assert.equal(legendOf(searchCompanies, 'insolvency_proxy'), 'Latest filed accounts');
  for (const field of ['turnover_trend', 'min_turnover_growth', 'max_employees_growth'])
    assert.equal(
      legendOf(searchCompanies, field),
      'Growth on the period before (latest accounts against the ones before)',
    );
  assert.equal(legendOf(searchCompanies, 'parent_country'), 'Ownership (persons with significant control)');
  assert.equal(legendOf(searchCompanies, 'size_class'), 'The same filters by the public service’s names');
  assert.equal(legendOf(marketStats, 'group_by'), 'Breakdown');
  const folded = fieldGroups(formFields(searchCompanies))
    .filter((g) => g.folded)
    .map((g) => g.legend);
  assert.deepEqual(folded, [
    'Ownership (persons with significant control)',
    'The same filters by the public service’s names',
  ]);
  assert.deepEqual(
    fieldGroups(formFields(findTriggers)).map((g) => g.legend),
    [
      'Trigger',
      'Register',
      'Latest filed accounts',
      'Growth on the period before (latest accounts against the ones before)',
      'Ownership (persons with significant control)',
      'Order and page size',
      'The same filters by the public service’s names',
    ],
  );
});

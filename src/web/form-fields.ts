/**
 * The fields of a web form, generated from an operation's zod input schema (through its JSON
 * Schema, the same one the OpenAPI document publishes), so that a filter added to the API is on
 * the form without anyone remembering to add it. And the way back: what a submitted form says,
 * read by the same code the REST query goes through, so that a bad value is refused with the same
 * words, naming the field.
 */
import * as z from 'zod';
import { AppError } from '../errors.ts';
import { describeIssue, inputFromQuery, unsafeTextIssue } from '../call/input.ts';
import { ownershipFilterShape } from '../operations/inputs.ts';
import type { Operation } from '../operations/operation.ts';

/** Arguments a form never shows: the paging cursor travels in the page's own links. */
const NOT_ON_FORMS: ReadonlySet<string> = new Set(['cursor']);

/**
 * Arguments that are another spelling of one the form already has (the public service's
 * names): the form puts them apart, under "the same filters by other names", rather than
 * leaving them out, since the API takes them.
 */
const OTHER_NAMES: Readonly<Record<string, string>> = {
  size_class: 'size',
  sort_by: 'sort',
  sort_order: 'sort',
};

interface FieldBase {
  /** The argument's name, which is also the form control's name and the REST parameter's. */
  name: string;
  label: string;
  /** The schema's description: what the field means and its range. */
  hint: string;
  required: boolean;
  /** Set when this is another spelling of a field (`size_class` of `size`). */
  otherNameOf?: string;
}

export type FormField =
  | (FieldBase & { kind: 'choice'; options: readonly string[]; default?: string })
  | (FieldBase & { kind: 'yes-no' })
  | (FieldBase & { kind: 'number'; integer: boolean; min?: number; max?: number; default?: number })
  | (FieldBase & { kind: 'date' })
  | (FieldBase & { kind: 'text'; maxLength?: number });

interface JsonProperty {
  type?: string;
  enum?: unknown[];
  format?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

/** The form fields of `operation`, in the order of its input schema: every argument but the cursor. */
export function formFields(operation: Operation): readonly FormField[] {
  const known = FIELDS.get(operation);
  if (known) return known;
  const fields = fieldsOf(operation);
  FIELDS.set(operation, fields);
  return fields;
}

/** The fields of each operation, made once: a schema does not change while the service runs. */
const FIELDS = new WeakMap<Operation, readonly FormField[]>();

function fieldsOf(operation: Operation): FormField[] {
  const schema = z.toJSONSchema(operation.input, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonProperty>;
    required?: string[];
  };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .filter(([name]) => !NOT_ON_FORMS.has(name))
    .map(([name, property]) => field(name, property, required.has(name)));
}

function field(name: string, property: JsonProperty, required: boolean): FormField {
  const base: FieldBase = {
    name,
    label: labelOf(name),
    hint: HINTS[name] ?? property.description ?? '',
    required,
    ...(OTHER_NAMES[name] !== undefined ? { otherNameOf: OTHER_NAMES[name] } : {}),
  };
  if (property.enum !== undefined)
    return {
      ...base,
      kind: 'choice',
      options: property.enum.map(String),
      ...(typeof property.default === 'string' ? { default: property.default } : {}),
    };
  if (property.type === 'boolean') return { ...base, kind: 'yes-no' };
  if (property.type === 'number' || property.type === 'integer')
    return {
      ...base,
      kind: 'number',
      integer: property.type === 'integer',
      ...(property.minimum !== undefined ? { min: property.minimum } : {}),
      ...(property.maximum !== undefined ? { max: property.maximum } : {}),
      ...(typeof property.default === 'number' ? { default: property.default } : {}),
    };
  if (property.format === 'date') return { ...base, kind: 'date' };
  if (property.type === 'string')
    return { ...base, kind: 'text', ...(property.maxLength !== undefined ? { maxLength: property.maxLength } : {}) };
  // A shape no form control fits is a new kind of argument: fail where it is defined, not on a page.
  throw new Error(`The form of "${name}" is unknown: JSON Schema ${JSON.stringify(property)}`);
}

/** Labels in plain words where the argument's name does not read as one. */
const LABELS: Readonly<Record<string, string>> = {
  status: 'Register status',
  type: 'Company type',
  sic: 'Industry',
  post_town: 'Town of the registered office',
  incorporated_from: 'Incorporated on or after',
  incorporated_to: 'Incorporated on or before',
  size: 'Size (Companies Act)',
  risk_band: 'Risk band',
  signal: 'Showing the signal',
  trajectory: 'Overall direction of the figures',
  insolvency_proxy: 'Showing distress signals',
  negative_net_assets: 'Net assets below zero',
  has_corporate_parent: 'Owned by a company',
  parent_country: 'Country of the parent company',
  min_controller_count: 'People with significant control, at least',
  max_controller_count: 'People with significant control, at most',
  identity_unverified: 'Identity verification overdue',
  sort: 'Order',
  limit: 'Rows a page',
  trigger: 'Trigger',
  group_by: 'Break down by',
};

/** What a figure's part of a name says: `total_assets` is total assets less current liabilities. */
const FIGURE_WORDS: Readonly<Record<string, string>> = {
  total_assets: 'Total assets less current liabilities',
  net_assets: 'Net assets',
};

/** The unit a figure's bound is in, for its label. */
function unitOf(figure: string): string {
  return figure === 'employees' ? ' (people)' : ' (£)';
}

/**
 * A field's label in plain words: `min_net_assets` → "Net assets at least (£)",
 * `turnover_trend` → "Turnover on the period before", `min_turnover_growth` → "Turnover growth at
 * least (%)"; other names from LABELS, or their words. The argument's name is shown apart, in
 * the field's details line.
 */
export function labelOf(name: string): string {
  const known = LABELS[name];
  if (known !== undefined) return known;
  const words = (stem: string) => {
    const text = FIGURE_WORDS[stem] ?? stem.replace(/_/g, ' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  };
  const growth = /^(min|max)_(.+)_growth$/.exec(name);
  if (growth) return `${words(growth[2]!)} growth ${growth[1] === 'min' ? 'at least' : 'at most'} (%)`;
  const trend = /^(.+)_trend$/.exec(name);
  if (trend) return `${words(trend[1]!)} on the period before`;
  const bound = /^(min|max)_(.+)$/.exec(name);
  if (bound) return `${words(bound[2]!)} ${bound[1] === 'min' ? 'at least' : 'at most'}${unitOf(bound[2]!)}`;
  return words(name);
}

/**
 * Hints in plain words where the schema's description, written for API clients, names other
 * arguments; the rest keep the description.
 */
const HINTS: Readonly<Record<string, string>> = {
  sic: 'Type a word of the industry (e.g. software, plumbing) and pick it from the list, or a SIC code or its first digits (62: IT)',
  trajectory:
    'A vote over net assets, cash, turnover, employees and profit across all filed accounts; for one figure, use the growth filters',
  sort: 'Or choose by a column heading of the results',
  status: 'Active companies unless you choose otherwise',
  trigger:
    'The moment to look for: cash rich, rapid growth, hiring, turned profitable, recently filed, accounts overdue, distress, or young and funded',
  insolvency_proxy:
    'Yes: only companies showing distress (a distress status, net assets below zero, or low cash after a 30% fall); No: only those showing none. Not a finding of insolvency',
  negative_net_assets: 'Yes: only companies with net assets below zero; No: only those with zero or more',
  has_corporate_parent: 'Yes: a company controls it (UK or overseas); No: people control it, no company',
  parent_country: 'As filed (e.g. Jersey, USA), or overseas for any country outside the UK, or uk',
  min_controller_count: 'Current people with significant control (statements not counted)',
  max_controller_count: 'Current people with significant control; 0 for none registrable',
  identity_unverified:
    'Yes: a current director or person with significant control has not verified their identity by the date due',
  include_estimates:
    'Yes: also use figures estimated from scanned PDF accounts where no machine-readable accounts were filed',
  group_by:
    'Also count the companies and spread their figures by status, company type, industry section or code, town, year of incorporation, size or risk band; the 50 largest groups are listed and the rest put together',
};

/** The most rows one call may ask for (`limit`'s maximum): the page size when reading every match. */
export function largestPage(operation: Operation): number {
  const limit = formFields(operation).find((f) => f.name === 'limit');
  if (limit?.kind !== 'number' || limit.max === undefined)
    throw new Error(`${operation.name} has no bounded limit argument to page with`);
  return limit.max;
}

/** A form read: the operation's input, or the field that is wrong and why. */
export type FormReading<Input> =
  | { ok: true; input: Input; values: Record<string, string> }
  | { ok: false; field: string | null; message: string; values: Record<string, string> };

/**
 * What a submitted form (its query string) asks of `operation`. Empty fields are left out, as a
 * person leaves a filter blank to mean "any"; parameters named in `pageParameters` belong to the
 * page (paging, not the operation) and are set aside. Everything else goes the way of a REST
 * query: unknown or repeated names refused, numbers and yes/no read, then the input schema, with
 * the 400's wording, naming the field.
 */
export function readForm<Input extends z.ZodObject>(
  operation: Operation<Input>,
  query: Record<string, string | string[] | undefined>,
  pageParameters: readonly string[] = [],
): FormReading<z.output<Input>> {
  const given: Record<string, string | string[]> = {};
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || pageParameters.includes(name) || name === 'format' || name === 'key') continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    given[name] = value;
    if (typeof value === 'string') values[name] = value;
  }
  let raw: Record<string, unknown>;
  try {
    raw = inputFromQuery(operation, given) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { ok: false, field: /"([^"]+)"/.exec(error.message)?.[1] ?? null, message: error.message, values };
  }
  const unsafe = unsafeTextIssue(raw);
  if (unsafe !== null) return { ok: false, field: /"([^"[]+)/.exec(unsafe)?.[1] ?? null, message: unsafe, values };
  const parsed = operation.input.safeParse(raw);
  if (parsed.success) return { ok: true, input: parsed.data, values };
  const issue = parsed.error.issues[0]!;
  return { ok: false, field: String(issue.path[0] ?? '') || null, message: describeIssue(issue, raw), values };
}

/** A fieldset of the form: its legend, its fields in the schema's order, and what a blank choice means. */
export interface FieldGroup {
  legend: string;
  /** The text of a choice's empty option: "Any" for a filter, "Default" for the order. */
  blank: string;
  /** Less used: shown folded (a <details>) unless one of its fields is filled in. */
  folded: boolean;
  fields: FormField[];
}

/** Legends, in the order the fieldsets appear, and which arguments each holds. */
const GROUPS: readonly { legend: string; blank: string; folded?: boolean; holds: (field: FormField) => boolean }[] = [
  { legend: 'Trigger', blank: 'Choose one', holds: (f) => f.name === 'trigger' },
  {
    legend: 'Register',
    blank: 'Any',
    holds: (f) => ['status', 'type', 'sic', 'post_town', 'incorporated_from', 'incorporated_to'].includes(f.name),
  },
  {
    legend: 'Growth on the period before (latest accounts against the ones before)',
    blank: 'Any',
    holds: (f) => /_trend$|^(min|max)_.+_growth$/.test(f.name),
  },
  {
    legend: 'Ownership (persons with significant control)',
    blank: 'Any',
    folded: true,
    holds: (f) => f.name in ownershipFilterShape,
  },
  { legend: 'Order and page size', blank: 'Default', holds: (f) => ['sort', 'limit'].includes(f.name) },
  { legend: 'Breakdown', blank: 'None', holds: (f) => f.name === 'group_by' },
  {
    legend: 'The same filters by the public service’s names',
    blank: 'Not given',
    folded: true,
    holds: (f) => f.otherNameOf !== undefined,
  },
];

/**
 * The fields in fieldsets. What no other fieldset holds is a filter on the latest accounts (the
 * figures, size, risk, signals), so an argument added later is still on the form.
 */
export function fieldGroups(fields: readonly FormField[]): FieldGroup[] {
  const accounts: FormField[] = [];
  const grouped = GROUPS.map(({ legend, blank, folded }) => ({
    legend,
    blank,
    folded: folded ?? false,
    fields: [] as FormField[],
  }));
  for (const field of fields) {
    const at = GROUPS.findIndex((group) => group.holds(field));
    (at === -1 ? accounts : grouped[at]!.fields).push(field);
  }
  grouped.splice(2, 0, { legend: 'Latest filed accounts', blank: 'Any', folded: false, fields: accounts });
  return grouped.filter((group) => group.fields.length > 0);
}

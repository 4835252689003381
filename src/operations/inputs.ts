/**
 * Input schemas shared by several operations. They take the values a client sends (REST query
 * strings are turned into numbers by the HTTP layer first) and give the domain's values; every
 * message says what is wrong so that the 400 can name the parameter.
 */
import * as z from 'zod';
import { normaliseCompanyNumber } from '../domain/company-number.ts';
import { STATUS_FILTERS } from '../domain/company-status.ts';
import {
  COMPANY_TYPE_ALIASES,
  companyTypeKey,
  isKnownCompanyType,
  REGISTER_CATEGORIES,
} from '../domain/company-type.ts';
import type { CompanyFilters, SortOrder } from '../domain/criteria.ts';
import { RANGE_FIGURES, SORT_FIELDS, TRAJECTORY_FILTERS } from '../domain/criteria.ts';
import { RISK_BANDS } from '../domain/risk-band.ts';
import { postTownKey } from '../domain/search-document.ts';
import { SIZE_BANDS } from '../domain/size-band.ts';
import { SEARCH_SIGNALS } from '../domain/triggers.ts';
import { isCalendarDate } from '../domain/calendar-date.ts';
import { countryKey } from '../domain/countries.ts';
import { GROWTH_FIGURES, TREND_FILTERS } from '../domain/figure-growth.ts';
import type { GrowthFigure } from '../domain/figure-growth.ts';

/** What `normaliseCompanyNumber` can make a company number of: the pattern the document publishes. */
const COMPANY_NUMBER_PATTERN = /^\s*(\d{1,8}|[A-Za-z0-9]{8})\s*$/;

const COMPANY_NUMBER_MESSAGE =
  'must be a company number: 8 letters or digits, e.g. 00445790 or SC123456 (shorter all-digit numbers are zero-padded)';

export function companyNumberInput(description: string) {
  return z
    .string()
    .regex(COMPANY_NUMBER_PATTERN, COMPANY_NUMBER_MESSAGE)
    .describe(
      `${description}: 8 letters or digits (e.g. 00445790, SC123456); shorter all-digit numbers are zero-padded`,
    )
    .transform((raw, ctx) => {
      const number = normaliseCompanyNumber(raw);
      if (number === null) {
        ctx.addIssue({
          code: 'custom',
          message: `"${raw}" is not a company number: expected 8 letters or digits, e.g. 00445790 or SC123456`,
        });
        return z.NEVER;
      }
      return number;
    });
}

/**
 * A list of 1 to `max` company numbers, each normalised like `companyNumberInput`; a bad one is
 * named by its place (`company_numbers[3]`). Repeats (after normalising: 1 and 00000001) are
 * kept once, in the order first given.
 */
export function companyNumberListInput(max: number, description: string) {
  return z
    .array(z.string().regex(COMPANY_NUMBER_PATTERN, COMPANY_NUMBER_MESSAGE), {
      error: 'must be a list of company numbers',
    })
    .min(1, 'must list at least 1 company number')
    .max(max, `must list at most ${max} company numbers`)
    .describe(`${description}: 1–${max} numbers, 8 letters or digits each (e.g. 00445790, SC123456)`)
    .transform((raw, ctx) => {
      const numbers = new Set<string>();
      raw.forEach((value, i) => {
        const number = normaliseCompanyNumber(value);
        if (number === null)
          ctx.addIssue({
            code: 'custom',
            path: [i],
            message: `"${value}" is not a company number: expected 8 letters or digits, e.g. 00445790 or SC123456`,
          });
        else numbers.add(number);
      });
      return [...numbers];
    });
}

/** Free text: not blank (a filter of spaces would be silently ignored), at most `max` characters. */
export function textInput(max: number) {
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((text) => text.trim() !== '', { message: 'must not be blank' });
}

export function limitInput(max: number, fallback: number) {
  return z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .default(fallback)
    .describe(`How many results, 1–${max} (default ${fallback})`);
}

export function dateInput(description: string) {
  return z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
    .refine(isCalendarDate, { message: 'must be a real calendar date YYYY-MM-DD (0001-01-01 to 9999-12-31)' })
    .meta({ format: 'date' })
    .describe(description);
}

const figureBounds = Object.fromEntries(
  RANGE_FIGURES.flatMap((figure) => [
    [
      `min_${figure}`,
      z
        .number()
        .optional()
        .describe(`Newest filed ${figure.replace('_', ' ')} at least this`),
    ],
    [
      `max_${figure}`,
      z
        .number()
        .optional()
        .describe(`Newest filed ${figure.replace('_', ' ')} at most this`),
    ],
  ]),
) as Record<`${'min' | 'max'}_${(typeof RANGE_FIGURES)[number]}`, z.ZodOptional<z.ZodNumber>>;

/** A growth figure in words: `total_assets` → "total assets less current liabilities". */
function growthWords(figure: GrowthFigure): string {
  return figure === 'total_assets' ? 'total assets less current liabilities' : figure.replace('_', ' ');
}

/**
 * Per growth figure (figure-growth.ts), its direction and bounds on its change in percent, the
 * latest filed value against the period before: `turnover_trend`, `min_turnover_growth`, …
 */
const growthFilters = Object.fromEntries(
  GROWTH_FIGURES.flatMap((figure) => [
    [
      `${figure}_trend`,
      z
        .enum(TREND_FILTERS, { error: `must be one of ${TREND_FILTERS.join(', ')}` })
        .optional()
        .describe(`${growthWords(figure)}: latest vs previous period, ±10% stable`),
    ],
    [`min_${figure}_growth`, z.number().optional().describe('% change, at least')],
    [`max_${figure}_growth`, z.number().optional().describe('% change, at most')],
  ]),
) as Record<`${GrowthFigure}_trend`, z.ZodOptional<z.ZodEnum<{ [T in (typeof TREND_FILTERS)[number]]: T }>>> &
  Record<`${'min' | 'max'}_${GrowthFigure}_growth`, z.ZodOptional<z.ZodNumber>>;

const MAX_CONTROLLER_COUNT = 100_000;
const controllerCount = (description: string) =>
  z
    .number()
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(MAX_CONTROLLER_COUNT, `must be at most ${MAX_CONTROLLER_COUNT}`)
    .optional()
    .describe(description);

/**
 * The ownership filters, on the PSC register: search, triggers and stats take them. A
 * company without any PSC record held matches none of them (docs/ownership.md, "Ownership filters").
 */
export const ownershipFilterShape = {
  has_corporate_parent: z
    .boolean()
    .optional()
    .describe('true: a current corporate PSC (a parent, UK or overseas); false: PSCs on file, none corporate'),
  parent_country: textInput(100)
    .refine((text) => countryKey(text) !== null, { message: 'must name a country, e.g. Jersey, overseas or uk' })
    .optional()
    .describe('Country of a current corporate PSC as filed (e.g. Jersey, USA); overseas: any non-UK; uk: any UK'),
  min_controller_count: controllerCount('Current PSCs at least this many (statements not counted)'),
  max_controller_count: controllerCount('Current PSCs at most this many (0: no registrable PSC)'),
  identity_unverified: z.boolean().optional().describe('Director/PSC ID check overdue'),
};

/** The filters of search, triggers and stats. */
/**
 * include_estimates on search_companies, find_triggers and market_stats: figures estimated from
 * scanned PDF accounts where the company filed none (DocumentView). Described in a few words: the
 * three are in the `core` toolset, whose tools/list is held under 8,000 tokens.
 */
function includeEstimatesInput() {
  return z.boolean().optional().describe('true: use PDF estimates');
}

export const filterShape = {
  status: z
    .enum(STATUS_FILTERS, { error: `must be one of ${STATUS_FILTERS.join(', ')}` })
    .default('active')
    .describe('Register status group (default active; any for all)'),
  type: z
    .string()
    .max(120, 'must be at most 120 characters')
    .refine(isKnownCompanyType, {
      message:
        `must be one of ${Object.keys(COMPANY_TYPE_ALIASES).join(', ')}, or a register category: ` +
        REGISTER_CATEGORIES.join('; '),
    })
    .optional()
    .describe(
      'Company type: the register category (e.g. "Private Limited Company") or ltd, plc, llp, lp, cic, guarantee',
    ),
  sic: z
    .string()
    .regex(/^\d{1,5}$/, 'must be 1 to 5 digits of a SIC code, e.g. 62 or 62020')
    .optional()
    .describe('SIC code prefix, e.g. 62 (IT) or 62020'),
  post_town: textInput(100).optional().describe('Post town of the registered office, e.g. LEEDS'),
  incorporated_from: dateInput('Incorporated on or after, YYYY-MM-DD').optional(),
  incorporated_to: dateInput('Incorporated on or before, YYYY-MM-DD').optional(),
  ...figureBounds,
  size: z
    .enum(SIZE_BANDS, { error: `must be one of ${SIZE_BANDS.join(', ')}` })
    .optional()
    .describe('Companies Act size band by turnover and employees'),
  risk_band: z
    .enum(RISK_BANDS, { error: `must be one of ${RISK_BANDS.join(', ')}` })
    .optional()
    .describe('Risk band derived from the signals'),
  signal: z
    .enum(SEARCH_SIGNALS, { error: `must be one of ${SEARCH_SIGNALS.join(', ')}` })
    .optional()
    .describe('Only companies showing this signal'),
  // The public UK Company Data service's names, beside ours.
  size_class: z
    .enum(SIZE_BANDS, { error: `must be one of ${SIZE_BANDS.join(', ')}` })
    .optional()
    .describe("The same as size (the public service's name); give one of the two"),
  trajectory: z
    .enum(TRAJECTORY_FILTERS, { error: `must be one of ${TRAJECTORY_FILTERS.join(', ')}` })
    .optional()
    .describe('Overall direction, a vote over five figures; for one figure use <figure>_trend (e.g. turnover_trend)'),
  ...growthFilters,
  insolvency_proxy: z
    .boolean()
    .optional()
    .describe(
      'true: only companies showing distress signals (distress status, negative net assets, or low cash after a ' +
        '30% fall); false: none. Not a finding of insolvency',
    ),
  min_total_assets: z.number().optional().describe('Newest total assets less current liabilities at least this'),
  max_total_assets: z.number().optional().describe('Newest total assets less current liabilities at most this'),
  negative_net_assets: z
    .boolean()
    .optional()
    .describe('true: only companies with net assets below zero; false: only those with net assets of zero or more'),
  ...ownershipFilterShape,
  include_estimates: includeEstimatesInput(),
};

/** market_stats' filters: the register and ownership filters of a search, and estimates; no figure bounds. */
export const marketStatsFilterShape = {
  status: filterShape.status,
  type: filterShape.type,
  sic: filterShape.sic,
  post_town: filterShape.post_town,
  incorporated_from: filterShape.incorporated_from,
  incorporated_to: filterShape.incorporated_to,
  ...ownershipFilterShape,
  include_estimates: filterShape.include_estimates,
};

/** Pairs of filters that are one filter under two names: giving both is refused, naming both. */
const SAME_FILTER: readonly [ours: 'size', theirs: 'size_class'][] = [['size', 'size_class']];

export type FilterInput = z.output<z.ZodObject<typeof filterShape>>;
type OwnershipFilterInput = z.output<z.ZodObject<typeof ownershipFilterShape>>;

/** The register filters in words, every value listed, for the descriptions of the tools taking them. */
export const REGISTER_FILTERS_TEXT =
  `status (${STATUS_FILTERS.join(', ')}; default active), ` +
  `type (${Object.keys(COMPANY_TYPE_ALIASES).join(', ')}, or a register category), sic (SIC code prefix, ` +
  'e.g. 62), post_town, incorporated_from and incorporated_to (YYYY-MM-DD)';

/** The filters on the latest accounts in words, every value listed. */
export const ACCOUNTS_FILTERS_TEXT =
  `min_ and max_ of ${RANGE_FIGURES.join(', ')} (GBP; employees a head count), size (${SIZE_BANDS.join(', ')}), ` +
  `risk_band (${RISK_BANDS.join(', ')}), signal (${SEARCH_SIGNALS.join(', ')}); also, as the public UK Company ` +
  `Data service names them: size_class (= size), trajectory (${TRAJECTORY_FILTERS.join(', ')}), min_employees, ` +
  'insolvency_proxy (true/false: distress signals), min_total_assets and max_total_assets (total assets less ' +
  'current liabilities, GBP), negative_net_assets (true/false); per figure ' +
  `(${GROWTH_FIGURES.join(', ')}), latest against the period before: <figure>_trend ` +
  `(${TREND_FILTERS.join(', ')}; ±10%), min_/max_<figure>_growth (percent)`;

/** The ownership filters in words, every value listed. */
export const OWNERSHIP_FILTERS_TEXT =
  'has_corporate_parent, parent_country (or overseas, uk), min_/max_controller_count (current PSCs)';

/** Checks across the ownership filters: bounds the wrong way round. */
function checkOwnershipFilters(input: OwnershipFilterInput, ctx: z.RefinementCtx): void {
  const { min_controller_count: min, max_controller_count: max } = input;
  if (min !== undefined && max !== undefined && min > max)
    ctx.addIssue({ code: 'custom', path: ['min_controller_count'], message: 'is greater than max_controller_count' });
}

/** Checks across filters: a range whose bounds are the wrong way round. */
export function checkFilterRanges(input: FilterInput, ctx: z.RefinementCtx): void {
  checkOwnershipFilters(input, ctx);
  for (const figure of RANGE_FIGURES) {
    const min = input[`min_${figure}`];
    const max = input[`max_${figure}`];
    if (min !== undefined && max !== undefined && min > max)
      ctx.addIssue({ code: 'custom', path: [`min_${figure}`], message: `is greater than max_${figure}` });
  }
  if (input.incorporated_from && input.incorporated_to && input.incorporated_from > input.incorporated_to)
    ctx.addIssue({ code: 'custom', path: ['incorporated_from'], message: 'is after incorporated_to' });
  for (const figure of GROWTH_FIGURES) {
    const min = input[`min_${figure}_growth`];
    const max = input[`max_${figure}_growth`];
    if (min !== undefined && max !== undefined && min > max)
      ctx.addIssue({ code: 'custom', path: [`min_${figure}_growth`], message: `is greater than max_${figure}_growth` });
  }
  if (
    input.min_total_assets !== undefined &&
    input.max_total_assets !== undefined &&
    input.min_total_assets > input.max_total_assets
  )
    ctx.addIssue({ code: 'custom', path: ['min_total_assets'], message: 'is greater than max_total_assets' });
  for (const [ours, theirs] of SAME_FILTER)
    if (input[ours] !== undefined && input[theirs] !== undefined) ctx.addIssue(conflict(theirs, ours));
}

/** "size_class" and "size" given together: one filter under two names. */
function conflict(given: string, other: string): z.core.$ZodRawIssue {
  return {
    code: 'custom',
    path: [given],
    input: undefined,
    message: `conflicts with "${other}": they are the same, give only one of "${other}" and "${given}"`,
  };
}

export function companyFilters(input: FilterInput): CompanyFilters {
  const figures: NonNullable<CompanyFilters['figures']> = {};
  for (const figure of RANGE_FIGURES) {
    const min = input[`min_${figure}`];
    const max = input[`max_${figure}`];
    if (min !== undefined || max !== undefined)
      figures[figure] = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  }
  const { min_total_assets: minTotal, max_total_assets: maxTotal } = input;
  if (minTotal !== undefined || maxTotal !== undefined)
    figures.total_assets_less_current_liabilities = {
      ...(minTotal !== undefined ? { min: minTotal } : {}),
      ...(maxTotal !== undefined ? { max: maxTotal } : {}),
    };
  const size = input.size ?? input.size_class;
  const growth = growthFilter(input);
  return {
    status: input.status,
    ...(input.type !== undefined ? { type: companyTypeKey(input.type) } : {}),
    ...(input.sic !== undefined ? { sic: input.sic } : {}),
    ...(input.post_town !== undefined && postTownKey(input.post_town)
      ? { post_town: postTownKey(input.post_town)! }
      : {}),
    ...(input.incorporated_from !== undefined ? { incorporated_from: input.incorporated_from } : {}),
    ...(input.incorporated_to !== undefined ? { incorporated_to: input.incorporated_to } : {}),
    ...(Object.keys(figures).length > 0 ? { figures } : {}),
    ...(size !== undefined ? { size } : {}),
    ...(input.risk_band !== undefined ? { risk_band: input.risk_band } : {}),
    ...(input.signal !== undefined ? { signal: input.signal } : {}),
    ...(input.trajectory !== undefined ? { trajectory: input.trajectory } : {}),
    ...(Object.keys(growth).length > 0 ? { growth } : {}),
    ...(input.include_estimates === true ? { estimates: 'include' as const } : {}),
    ...(input.insolvency_proxy !== undefined ? { insolvency_proxy: input.insolvency_proxy } : {}),
    ...(input.negative_net_assets !== undefined ? { negative_net_assets: input.negative_net_assets } : {}),
    ...ownershipFilters(input),
  };
}

/** The growth filters given, per figure. */
function growthFilter(input: FilterInput): NonNullable<CompanyFilters['growth']> {
  const growth: NonNullable<CompanyFilters['growth']> = {};
  for (const figure of GROWTH_FIGURES) {
    const trend = input[`${figure}_trend`];
    const min = input[`min_${figure}_growth`];
    const max = input[`max_${figure}_growth`];
    if (trend !== undefined || min !== undefined || max !== undefined)
      growth[figure] = {
        ...(trend !== undefined ? { trend } : {}),
        ...(min !== undefined ? { min } : {}),
        ...(max !== undefined ? { max } : {}),
      };
  }
  return growth;
}

/** The figures whose growth the filters ask about, in GROWTH_FIGURES order: each result says their growth. */
export function growthAsked(filters: CompanyFilters): GrowthFigure[] {
  return GROWTH_FIGURES.filter((figure) => filters.growth?.[figure] !== undefined);
}

/** The ownership filters as the domain takes them: the country as its key. */
function ownershipFilters(input: OwnershipFilterInput): Partial<CompanyFilters> {
  const country = input.parent_country === undefined ? null : countryKey(input.parent_country);
  const { min_controller_count: min, max_controller_count: max } = input;
  return {
    ...(input.has_corporate_parent !== undefined ? { has_corporate_parent: input.has_corporate_parent } : {}),
    ...(input.identity_unverified !== undefined ? { identity_unverified: input.identity_unverified } : {}),
    ...(country !== null ? { parent_country: country } : {}),
    ...(min !== undefined || max !== undefined
      ? { controller_count: { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) } }
      : {}),
  };
}

/** The filters as given, for the `criteria`/`filters` echo: what was asked, defaults included. */
export function filterEcho(input: FilterInput): FilterInput {
  return Object.fromEntries(
    Object.entries(input).filter(([key, value]) => key in filterShape && value !== undefined),
  ) as FilterInput;
}

const SORT_VALUES = SORT_FIELDS.flatMap((field) => [field, `-${field}`]) as [string, ...string[]];

export const sortInput = z
  .enum(SORT_VALUES, { error: `must be one of ${SORT_FIELDS.join(', ')}, with - in front for descending` })
  .default('-net_assets')
  .describe(
    'Sort by net_assets, cash, turnover, employees, incorporated, name or total_assets (total assets less current ' +
      'liabilities); prefix - for descending (default -net_assets)',
  );

const SORT_ORDERS = ['asc', 'desc'] as const;

/**
 * Search's sort arguments: ours (`sort=-net_assets`), or the public service's (`sort_by=net_assets`
 * and `sort_order=desc`); one spelling a call. Without either, -net_assets.
 */
export const sortShape = {
  sort: sortInput
    .unwrap()
    .optional()
    .describe('Prefix - for descending (default -net_assets); or sort_by and sort_order instead'),
  sort_by: z
    .enum(SORT_FIELDS, { error: `must be one of ${SORT_FIELDS.join(', ')}` })
    .optional()
    .describe("Instead of sort, the public service's name"),
  sort_order: z.enum(SORT_ORDERS, { error: 'must be asc or desc' }).optional().describe('With sort_by (default desc)'),
};

type SortArguments = { sort?: string | undefined; sort_by?: string | undefined; sort_order?: string | undefined };

/** `sort` with `sort_by` or `sort_order`: two spellings of the order in one call. */
export function checkSort(input: SortArguments, ctx: z.RefinementCtx): void {
  if (input.sort === undefined) return;
  if (input.sort_by !== undefined) ctx.addIssue(conflict('sort_by', 'sort'));
  if (input.sort_order !== undefined) ctx.addIssue(conflict('sort_order', 'sort'));
}

/** The order asked for, in our spelling: `sort`, else sort_by and sort_order, else -net_assets. */
export function effectiveSort(input: SortArguments): string {
  if (input.sort !== undefined) return input.sort;
  const field = input.sort_by ?? 'net_assets';
  return input.sort_order === 'asc' ? field : `-${field}`;
}

export function sortOrder(sort: string): SortOrder {
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  return {
    field: (field === 'total_assets' ? 'total_assets_less_current_liabilities' : field) as SortOrder['field'],
    descending,
  };
}

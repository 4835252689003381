/**
 * Output schemas: the JSON each operation's `run` gives (REST `format=json` and MCP
 * `structuredContent`, both with the envelope's `source` and `note` added), one per operation.
 * The operations' result types are inferred from them, so the types, the MCP `outputSchema` and
 * the answers cannot drift apart; the tests parse every operation's answer with its schema.
 *
 * No `.meta({ id })` here: an MCP tool's schema must be a plain object schema (see STYLE.md).
 */
import * as z from 'zod';
import { ALERT_KINDS, ALERT_SEVERITIES } from '../domain/alerts.ts';
import { RANGE_FIGURES } from '../domain/criteria.ts';
import { ESTIMATE_GRADES, FIGURE_SOURCES, FIGURE_KEYS, STANDARDS } from '../domain/figures.ts';
import type { FigureKey } from '../domain/figures.ts';
import { RISK_BANDS } from '../domain/risk-band.ts';
import { SIGNAL_CODES } from '../domain/signals.ts';
import type { Severity } from '../domain/signals.ts';
import { TRAJECTORY_FIGURES } from '../domain/trajectory.ts';
import { GROWTH_FIGURES } from '../domain/figure-growth.ts';
import { TRIGGERS } from '../domain/triggers.ts';
import { CONTROL_BANDS } from '../ownership/natures.ts';
import { OWNERSHIP_DIRECTIONS, OWNERSHIP_NODE_KINDS, PSC_RECORD_STATES } from '../ownership/ownership-graph.ts';
import { PSC_KIND_CLASSES } from '../domain/psc.ts';
import {
  PEOPLE_TOTAL_COUNTED_UP_TO,
  PERSON_COMPANIES_KEPT,
  PERSON_KINDS,
  PERSON_ROLE_FILTERS,
} from '../domain/people.ts';
import type { Plan } from '../domain/api-keys.ts';
import { nextOutput } from './cursor.ts';
import { filterShape, limitInput, marketStatsFilterShape, sortInput } from './inputs.ts';

/** `{ key: schema }` for each key, typed (Object.fromEntries loses the keys). */
function keyed<K extends string, S extends z.ZodType>(keys: readonly K[], schema: S): Record<K, S> {
  return Object.fromEntries(keys.map((key) => [key, schema])) as Record<K, S>;
}

/** Dates are ISO, YYYY-MM-DD. */
const date = z.string();
const optionalDate = date.nullable();
/** An amount in GBP as filed (employees: a head count); null means not filed. */
const figure = z.number().nullable();
const count = z.number().int().min(0);
const SEVERITIES = ['high', 'medium', 'low'] as const satisfies readonly Severity[];
const severity = z.enum(SEVERITIES);
const riskBand = z.enum(RISK_BANDS).describe('From the signals only; not a credit rating');
const PLANS_OFFERED = ['free', 'pro'] as const satisfies readonly Plan[];

const address = z.object({
  care_of: z.string().nullable(),
  po_box: z.string().nullable(),
  line_1: z.string().nullable(),
  line_2: z.string().nullable(),
  post_town: z.string().nullable(),
  county: z.string().nullable(),
  country: z.string().nullable(),
  postcode: z.string().nullable(),
});

/** A company's register record, as lookups show it. */
const companyViewOutput = z.object({
  company_number: z.string(),
  name: z.string(),
  status: z.string(),
  type: z.string(),
  incorporated: optionalDate,
  dissolved: optionalDate,
  accounts: z.object({
    category: z.string().nullable(),
    last_made_up_to: optionalDate,
    next_due: optionalDate,
    overdue: z.boolean(),
  }),
  confirmation_statement: z.object({ last_made_up_to: optionalDate, next_due: optionalDate }),
  charges_outstanding: count,
  charges_total: count,
  sic_codes: z.array(z.string()).describe('"62020 - Information technology consultancy activities"'),
  address,
  previous_names: z.array(z.object({ name: z.string(), changed: optionalDate })),
});

/**
 * One value per figure, as an object of named fields rather than a record: the JSON Schema then
 * defines each field it requires (a record's schema lists them as required but leaves them undefined).
 */
function perFigure<Value extends z.ZodType>(value: Value) {
  return z.object(Object.fromEntries(FIGURE_KEYS.map((key) => [key, value])) as Record<FigureKey, Value>);
}

/** One balance sheet date of a company's accounts history. */
const accountsEntryOutput = z.object({
  balance_sheet_date: date,
  period_start: optionalDate,
  published: optionalDate,
  standard: z.enum(STANDARDS),
  figures: perFigure(figure).describe('GBP as filed (employees: a head count); null: not filed'),
  quality: z.array(z.object({ field: z.string(), period: z.enum(['current', 'prior']), message: z.string() })),
  from_prior_period: z.boolean().describe('Known only from a later filing’s prior-year column'),
  source: z
    .object({
      kind: z.enum(FIGURE_SOURCES).describe('ixbrl: as tagged in the filing; pdf_ocr: estimated from a scanned PDF'),
      zip: z
        .string()
        .nullable()
        .describe('The bulk file it came in, "Accounts_Bulk_Data-2024-03-05.zip"; null: a file loaded on its own'),
      file: z.string().describe('The filed document’s name in it, "Prod223_3456_12345678_20231231.html"'),
    })
    .describe('The filing the figures came from: for a year known only from a prior-year column, the later filing'),
  document_id: z.string().nullable().describe('pdf_ocr: the Document API id of the PDF read; null for ixbrl'),
  confidence: z
    .partialRecord(z.enum(FIGURE_KEYS), z.enum(ESTIMATE_GRADES))
    .nullable()
    .describe('pdf_ocr: a grade per figure read (absent where the figure is null); null for ixbrl'),
});

const signalOutput = z.object({ code: z.enum(SIGNAL_CODES), severity, message: z.string() });

const direction = z.enum(['growing', 'stable', 'declining', 'insufficient_data']);
const figureTrend = z.object({
  first: figure,
  last: figure,
  change_pct: z.number().nullable(),
  cagr_pct: z.number().nullable(),
  direction,
});
const trajectoryOutput = z.object({
  direction,
  periods: count,
  ...keyed(TRAJECTORY_FIGURES, figureTrend),
});

export const companyProfileOutput = z.object({
  company: companyViewOutput,
  accounts: z.array(accountsEntryOutput).describe('Newest first, one per balance sheet date'),
  latest: accountsEntryOutput.nullable().describe('The newest entry with figures; null when none has any'),
  estimates_used: z
    .boolean()
    .describe('true: latest, signals, risk band and trajectory include pdf_ocr estimates (include_estimates=true)'),
  signals: z.array(signalOutput),
  risk_band: riskBand,
  trajectory: trajectoryOutput,
});

/** A nature of control: the code as filed and its words. */
const natureOutput = z.object({ code: z.string(), words: z.string() });

const controlBand = z.enum(CONTROL_BANDS).nullable();

/** The control an edge or a controller carries, summed over its natures. */
const controlBandsOutput = z
  .object({
    ownership: controlBand.describe('Shares, or an LLP’s surplus assets'),
    voting: controlBand,
    appoints_board: z.boolean(),
    significant_influence: z.boolean(),
  })
  .describe('The strongest bands stated; null when none');

/** `identity_verification_details` as published on an officer or PSC; null when none is. */
const identityVerificationOutput = z
  .object({
    identity_verified_on: optionalDate,
    appointment_verification_start_on: optionalDate,
    appointment_verification_end_on: optionalDate,
    appointment_verification_statement_date: optionalDate,
    appointment_verification_statement_due_on: optionalDate,
    authorised_corporate_service_provider_name: z.string().nullable(),
    preferred_name: z.string().nullable(),
  })
  .nullable();

/** A current (or, when asked, ceased) person with significant control of a company. */
const controllerOutput = z.object({
  kind: z.string().describe('As filed'),
  kind_class: z.enum(PSC_KIND_CLASSES),
  name: z.string().nullable(),
  natures_of_control: z.array(natureOutput),
  bands: controlBandsOutput,
  notified_on: optionalDate,
  ceased_on: optionalDate.optional().describe('With include_ceased only; null if current'),
  nationality: z.string().nullable(),
  country_of_residence: z.string().nullable(),
  birth_year: z.number().int().nullable(),
  birth_month: z.number().int().nullable(),
  company_number: z.string().nullable().describe('A corporate PSC on the register'),
  company_name: z.string().nullable(),
  registration_number: z.string().nullable(),
  country: z.string().nullable(),
  overseas: z.boolean().nullable(),
  beneficial_owner: z.boolean(),
  identity_verification: identityVerificationOutput,
});

const pscStatementOutput = z.object({
  statement: z.string().nullable().describe('The code as filed'),
  words: z.string(),
  notified_on: optionalDate,
  ceased_on: optionalDate.optional().describe('With include_ceased only; null if current'),
});

/** One current appointment of an officer, as the lookup lists it. */
export const officerSummaryOutput = z.object({
  name: z.string(),
  role: z.string(),
  appointed_on: optionalDate,
  resigned_on: optionalDate,
  nationality: z.string().nullable(),
  occupation: z.string().nullable(),
  country_of_residence: z.string().nullable(),
  birth_year: z.number().int().nullable(),
  birth_month: z.number().int().nullable(),
  officer_id: z.string().nullable(),
});

/** One appointment with what get_officers adds: identity verification and a disqualification in force. */
export const officerOutput = officerSummaryOutput.extend({
  identity_verification: identityVerificationOutput,
  disqualified_until: optionalDate,
});

/** What lookup_company gives: the profile, and who controls the company. */
export const lookupCompanyOutput = companyProfileOutput.extend({
  controllers: z
    .array(controllerOutput)
    .describe('The persons with significant control, current first, newest notified first'),
  psc_statements: z.array(pscStatementOutput).describe('What the company states instead of, or beside, its PSCs'),
});

/** What lookup_company gives: the lookup, and the company's current officers. */
export const lookupCompanyWithOfficersOutput = lookupCompanyOutput.extend({
  officers: z.array(officerSummaryOutput).describe('Current officers; get_officers gives more'),
  pdf_estimate_pending: z
    .literal(true)
    .optional()
    .describe(
      'Present when the company has no machine-readable accounts and estimates read from its PDF accounts are being prepared: look it up again in a few minutes',
    ),
});

const nullableText = z.string().nullable();

const ownershipNodeOutput = z.object({
  id: z.string().describe('"company:<number>" for a company; others numbered in the order found'),
  kind: z.enum(OWNERSHIP_NODE_KINDS),
  psc_kind: nullableText.describe('As filed'),
  name: nullableText,
  company_number: nullableText.describe('For a statement, the company it is about'),
  status: nullableText,
  psc_records: z.enum(PSC_RECORD_STATES).nullable().describe('A company’s own PSCs: found, none held, or not read'),
  country: nullableText,
  overseas: z.boolean().nullable(),
  registration_number: nullableText,
  legal_form: nullableText,
  nationality: nullableText,
  country_of_residence: nullableText,
  birth_year: z.number().int().nullable(),
  birth_month: z.number().int().nullable(),
  beneficial_owner: z.boolean(),
  statement: nullableText,
  words: nullableText,
  controls: count.nullable().describe('Companies it controls now, across the register'),
});

export const getOwnershipOutput = z.object({
  company_number: z.string(),
  name: z.string(),
  direction: z.enum(OWNERSHIP_DIRECTIONS),
  depth: z.number().int(),
  nodes: z.array(ownershipNodeOutput).describe('The company asked about first'),
  edges: z
    .array(
      z.object({
        from: z.string().describe('The controller’s node id'),
        to: z.string().describe('The controlled company’s node id'),
        psc_id: z.string(),
        natures: z.array(natureOutput),
        bands: controlBandsOutput,
        notified_on: optionalDate,
        identity_verification: identityVerificationOutput,
      }),
    )
    .describe('Controller to controlled'),
  ultimate_controllers: z
    .array(z.string())
    .describe(
      'Up: node ids where the chain ends (persons, entities, super-secure PSCs, statements, companies with no PSC records)',
    ),
  cycles: z.array(
    z.object({
      companies: z.array(z.string()).describe('Each controls the next; the last controls the first'),
      closing_edge: z.object({ from: z.string(), to: z.string() }),
    }),
  ),
  flags: z.object({
    overseas_parent: z.boolean(),
    circular_ownership: z.boolean(),
    super_secure_psc: z.boolean(),
    psc_details_withheld: z.boolean(),
    many_companies_under_one_controller: z.boolean(),
    no_registrable_psc: z.boolean(),
  }),
  truncated: z.boolean().describe('The edge cap was reached: there is more than is shown'),
  limits: z.object({ max_edges: count, many_companies: count }),
});

const nameHitOutput = z.object({
  company_number: z.string(),
  name: z.string(),
  status: z.string(),
  type: z.string(),
  post_town: z.string().nullable(),
  incorporated: optionalDate,
  sic_codes: z.array(z.string()),
});

export const searchByNameOutput = z.object({
  query: z.string(),
  results: z.array(nameHitOutput),
  total: count.describe('Every name matching the words, not only those listed'),
  next: nextOutput,
  near_matches: z
    .array(nameHitOutput)
    .describe(
      'Names a letter or two away from the words ("did you mean"), fewest edits first, up to the limit: only ' +
        'when the words match no name at all (results empty, total 0), on a first page',
    ),
});

/** One figure's latest value against the period before (src/domain/figure-growth.ts). */
const figureGrowthOutput = z.object({
  previous: figure.describe('In the period before the latest'),
  latest: figure,
  change_pct: z
    .number()
    .nullable()
    .describe('Percent change on the previous value, one decimal; null without both values or from zero'),
  direction: z
    .enum(['growing', 'stable', 'declining', 'insufficient_data'])
    .describe('growing: up 10% or more; declining: down 10% or more; stable: between; from zero any rise grows'),
  previous_balance_sheet_date: optionalDate,
});

/** A search hit with its latest figures. */
export const companyResultOutput = z.object({
  company_number: z.string(),
  name: z.string(),
  status: z.string(),
  post_town: z.string().nullable(),
  incorporated: optionalDate,
  sic_codes: z.array(z.string()),
  balance_sheet_date: optionalDate,
  net_assets: figure,
  cash: figure,
  turnover: figure,
  employees: figure,
  profit: figure,
  risk_band: riskBand,
  growth: z
    .object(Object.fromEntries(GROWTH_FIGURES.map((name) => [name, figureGrowthOutput.optional()])))
    .describe(
      'Each figure a growth filter asked about (<figure>_trend, min_/max_<figure>_growth): its latest value ' +
        'against the period before; empty when none was asked',
    ),
});

const total = count.describe('Every match, not only those listed');

const estimatesUsed = z.boolean().describe('true: some matches were read with PDF estimates (include_estimates)');

export const searchCompaniesOutput = z.object({
  criteria: z.object({ ...filterShape, sort: sortInput, limit: limitInput(50, 20) }).describe('What was asked'),
  total,
  estimates_used: estimatesUsed,
  results: z.array(companyResultOutput),
  next: nextOutput,
});

const difference = z.object({
  a: figure,
  b: figure,
  difference: figure.describe('a − b'),
  ratio: z.number().nullable().describe('a ÷ b, 3 decimals; null when b is 0'),
});

export const compareCompaniesOutput = z.object({
  companies: z
    .array(companyProfileOutput.pick({ company: true, latest: true, risk_band: true, signals: true, trajectory: true }))
    .length(2),
  differences: perFigure(difference).describe('Per figure of the latest accounts'),
});

const figureStats = z.object({
  count,
  mean: figure,
  p10: figure,
  p25: figure,
  median: figure,
  p75: figure,
  p90: figure,
});
const countsBy = z.record(z.string(), count);

export const marketStatsOutput = z.object({
  filters: z.object(marketStatsFilterShape),
  companies: count,
  estimates_used: estimatesUsed,
  with_accounts: count,
  by_status: countsBy,
  by_type: countsBy,
  incorporations_by_year: countsBy.describe('{"2019": 1234}, oldest year first'),
  negative_net_assets_share: z.number().nullable().describe('0–1, of those filing net assets'),
  sample: z
    .object({ probability: z.number(), companies: count })
    .optional()
    .describe('Present when all but `companies` is estimated from a random sample'),
  ...keyed(RANGE_FIGURES, figureStats),
});

export const findTriggersOutput = z.object({
  trigger: z.enum(TRIGGERS),
  criteria: z.object({ ...filterShape, limit: limitInput(50, 20) }),
  total,
  estimates_used: estimatesUsed,
  results: z.array(
    companyResultOutput.extend({
      reason: z.string(),
      metrics: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
    }),
  ),
  next: nextOutput,
});

export const recentChangesOutput = z.object({
  days: z.number().int(),
  since: date,
  filings: z.array(
    z.object({
      company_number: z.string(),
      name: z.string().nullable(),
      published: date,
      balance_sheet_date: date,
      net_assets: figure,
      cash: figure,
      turnover: figure,
    }),
  ),
  total: count.describe('Every filing published since `since`, not only those listed'),
  next: nextOutput,
});

export const watchListOutput = z.object({
  plan: z.enum(PLANS_OFFERED),
  limit: count,
  count,
  companies: z.array(
    z.object({
      company_number: z.string(),
      name: z.string().nullable(),
      status: z.string(),
      accounts_next_due: optionalDate,
      accounts_overdue: z.boolean().nullable().describe('Overdue today; null when no longer on the register'),
      risk_band: z
        .enum(RISK_BANDS)
        .nullable()
        .describe('From the signals now (not a credit rating); null when no longer on the register'),
      latest_balance_sheet_date: optionalDate,
      added: z.string().describe('ISO date-time'),
    }),
  ),
});

/** A company as it stands now, when added: what an agent should know before waiting for alerts. */
const watchedNow = z.object({
  company_number: z.string(),
  name: z.string(),
  status: z.string(),
  accounts_next_due: optionalDate,
  accounts_overdue: z.boolean().describe('Overdue already: no overdue_accounts alert will come for it'),
  risk_band: z.enum(RISK_BANDS).describe('From the signals now; not a credit rating'),
});

const numbers = z.array(z.string());

export const watchAddOutput = z.object({
  added: numbers,
  already_watched: numbers,
  not_found: numbers,
  companies: z.array(watchedNow).describe('The companies added or already watched, as they stand now'),
  over_limit: numbers.describe('New ones not added for the plan limit (with over_limit add_what_fits)'),
});

export const watchRemoveOutput = z.object({ removed: numbers, not_watched: numbers });

const alertValue = z.union([z.string(), z.number(), z.null()]);

const alertOutput = z.object({
  company_number: z.string(),
  name: z.string(),
  kind: z.enum(ALERT_KINDS),
  severity: z.enum(ALERT_SEVERITIES),
  message: z.string(),
  detected: date,
  from: alertValue,
  to: alertValue,
});

export const getAlertsOutput = z.object({
  since: date.describe('The since applied: as asked, else 30 days before today'),
  severity: z.enum(ALERT_SEVERITIES).describe('The lowest severity applied: as asked, else info (all)'),
  watched: numbers,
  alerts: z.array(alertOutput),
});

/** One company a person with significant control controls, or controlled. */
const personCompanyOutput = z.object({
  company_number: z.string(),
  company_name: z.string().nullable().describe('From the register; null when the company is not on it'),
  natures: z
    .array(z.object({ code: z.string(), words: z.string() }))
    .describe('The natures of control as filed, each in words ("owns 75–100% of shares")'),
  notified_on: optionalDate,
  ceased_on: optionalDate,
  ceased: z.boolean(),
  identity_verification: identityVerificationOutput.describe('On this PSC record, as get_ownership; null: none given'),
});

/** One appointment of a person as a company officer, as search_people and get_appointments list it. */
export const personAppointmentOutput = z.object({
  company_number: z.string(),
  company_name: z.string().nullable().describe('From the register; null when the company is not on it'),
  company_status: z.string().nullable().describe('From the register ("Active", "Liquidation", …)'),
  role: z.string().describe('officer_role as filed: director, secretary, llp-designated-member, …'),
  appointed_on: optionalDate,
  resigned_on: optionalDate.describe('null while the appointment is held'),
  officer_id: z.string().nullable().describe("Companies House's officer id: get_appointments lists its appointments"),
  identity_verification: identityVerificationOutput.describe('On this appointment, as get_officers; null: none given'),
});

export const searchPeopleOutput = z.object({
  query: z.string(),
  birth_year: z.number().int().nullable(),
  birth_month: z.number().int().nullable(),
  role: z.enum(PERSON_ROLE_FILTERS).nullable().describe('The role filter asked for, null for anyone'),
  results: z.array(
    z.object({
      kind: z.enum(PERSON_KINDS).describe('individual, corporate (a company as PSC) or legal_person'),
      name: z.string().describe('As filed on the newest record'),
      name_elements: z
        .object({
          title: z.string().nullable(),
          forename: z.string().nullable(),
          middle_name: z.string().nullable(),
          surname: z.string().nullable(),
        })
        .nullable(),
      birth_year: z.number().int().nullable(),
      birth_month: z.number().int().nullable().describe('1–12; the day of birth is never served'),
      nationality: z.string().nullable(),
      country_of_residence: z.string().nullable(),
      country: z.string().nullable().describe('Where a corporate or legal-person PSC is registered or governed'),
      registered_company_number: z.string().nullable().describe('A corporate PSC on a UK register: its number'),
      current_companies: count.describe('Companies controlled now'),
      company_count: count.describe('Companies controlled now or before'),
      companies: z.array(personCompanyOutput).describe(`Current first, newest first; at most ${PERSON_COMPANIES_KEPT}`),
      roles: z
        .array(z.string())
        .describe('What the person is: "psc" (on the PSC register), then officer roles as filed, current ones first'),
      officer_ids: z.array(z.string()).describe("Companies House's officer ids of their appointments"),
      current_appointments: count.describe('Officer appointments held now'),
      appointment_count: count.describe('Officer appointments now or before'),
      appointments: z
        .array(personAppointmentOutput)
        .describe(
          `Their appointments as an officer (a director's network): current first, newest appointed first; at most ${PERSON_COMPANIES_KEPT}`,
        ),
    }),
  ),
  total: count.describe(
    `Every person matching the name and birth filters, not only those listed, counted up to ${PEOPLE_TOTAL_COUNTED_UP_TO}`,
  ),
  total_is_lower_bound: z
    .boolean()
    .describe(`More match than \`total\`: the count stopped at ${PEOPLE_TOTAL_COUNTED_UP_TO}`),
  next: nextOutput,
});

/**
 * An operation, defined once: its input schema (zod), what it does over the ports, and how its
 * answer reads in Markdown. REST routes, MCP tools and the OpenAPI document are generated from the
 * table of operations (index.ts), so the surfaces cannot drift apart.
 */
import type * as z from 'zod';
import type { OfficerStore } from '../ports/officers.ts';
import type { OwnershipReader } from '../ports/ownership.ts';
import type { PeopleIndex } from '../ports/people-index.ts';
import type { PdfEstimateReader } from '../ports/pdf-estimates.ts';
import type { CompanyReader } from '../ports/companies.ts';
import type { Plan } from '../domain/api-keys.ts';
import type { SearchIndex } from '../ports/search-index.ts';
import type { WatchlistStore } from '../ports/watchlists.ts';
import type { Lookup } from '../webhooks/address-policy.ts';
import type { WebhookStore } from '../ports/webhooks.ts';
import type { PdfAccountsRequests } from '../ports/pdf-accounts-work.ts';

export interface OperationDeps {
  store: CompanyReader;
  search: SearchIndex;
  watchlists: WatchlistStore;
  /** Who controls whom (the PSC register). */
  ownership: OwnershipReader;
  /** Company officers and their appointments. */
  officers: Pick<OfficerStore, 'officersOf' | 'appointmentsOf' | 'otherAppointmentCounts'>;
  /** Figures estimated from scanned accounts PDFs, shown marked beside the iXBRL history. */
  pdfEstimates: PdfEstimateReader;
  /** Persons with significant control by name. */
  people: PeopleIndex;
  /** The key's webhook endpoints. */
  webhooks: WebhookDeps;
  /**
   * Where a lookup queues a company without machine-readable accounts for estimates from its
   * accounts PDFs; absent where no worker reads them (CH_API_KEY unset).
   */
  pdfRequests?: PdfAccountsRequests;
}

/** What the webhook operations need: the store, and whether private addresses are allowed. */
export interface WebhookDeps {
  store: WebhookStore;
  /** WEBHOOK_ALLOW_PRIVATE: accept http and private, loopback and link-local addresses (tests, labs). */
  allowPrivate: boolean;
  /** How URLs' host names are resolved for the address policy; the system resolver by default (tests pass one). */
  lookup?: Lookup;
}

/** Who is asking, and when. */
export interface CallContext {
  keyId: number;
  plan: Plan;
  /** The day asked, ISO (UTC): overdue accounts, recent filings and young companies are relative to it. */
  today: string;
  /** The moment asked, from the same clock: when a company is added to a watchlist. */
  now: Date;
}

export interface Operation<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> {
  /** The MCP tool name. */
  name: string;
  title: string;
  /** For the model choosing a tool, and the OpenAPI description: purpose, arguments, result. */
  description: string;
  http: {
    method: 'GET' | 'POST' | 'DELETE';
    /**
     * The REST path; a `{name}` segment is the argument `name` (after `rename`), e.g.
     * `/v1/webhooks/{id}/test`: a Koa router parameter, an `in: path` parameter in OpenAPI.
     */
    path: string;
    /** The status of a successful answer: 201 for an operation that creates something. Default 200. */
    successStatus?: 200 | 201;
    /** REST parameter names that differ from the tool's argument names: `{ number: 'company_number' }`. */
    rename?: Readonly<Record<string, string>>;
  };
  input: Input;
  /**
   * The answer's JSON shape (outputs.ts), without the envelope: what `run` gives, REST's format=json
   * body and MCP's structuredContent (both with `source` and `note`), and the tool's outputSchema.
   */
  output: Output;
  /** False for the answers that REST gives only as Markdown (watchlist add and remove). */
  json: boolean;
  /**
   * Requests of the monthly quota a call takes, from its valid input: one when left out. A batch
   * (lookup_companies) counts each company; an input refused (400) counts one.
   */
  cost?(input: z.output<Input>): number;
  /** Reads only, though sent by POST (a batch body): the MCP tool says so. Default: GET reads only. */
  readOnly?: boolean;
  /**
   * False when calling it twice does more than calling it once (webhook_create makes a second
   * endpoint): the MCP tool says so. Default: true.
   */
  idempotent?: boolean;
  /**
   * True when it deletes or replaces what the caller cannot get back: webhook_delete (the endpoint
   * and its log), watch_remove (the snapshots alerts compare against), webhook_rotate_secret (the
   * old secret stops signing). The MCP tool says so. Default: false.
   */
  destructive?: boolean;
  /**
   * True when it reaches beyond our own data: the webhook operations that send to, or register, a
   * URL of the caller's on the internet. The MCP tool says so. Default: false.
   */
  openWorld?: boolean;
  run(deps: OperationDeps, input: z.output<Input>, context: CallContext): Promise<z.output<Output>>;
  toMarkdown(result: z.output<Output>): string;
}

/**
 * An operation of the table, its schemas' types erased: what REST, MCP, OpenAPI and the call
 * pipeline iterate over. An Operation of any input and output is one without a cast, since `run`,
 * `cost` and `toMarkdown` are methods (their arguments compare both ways); what makes that safe
 * is that nothing calls them but the call pipeline (src/call), and only with what the operation's
 * own `input` schema parsed and what its own `run` answered.
 */
export type AnyOperation = Operation<z.ZodObject, z.ZodObject>;

/** An operation, its input's and answer's types inferred from its schemas. */
export function defineOperation<Input extends z.ZodObject, Output extends z.ZodObject>(
  operation: Operation<Input, Output>,
): Operation<Input, Output> {
  return operation;
}

/** The MCP tool annotations of an operation: hints for a client deciding whether to ask its user first. */
export function annotationsOf(operation: AnyOperation): {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
} {
  return {
    title: operation.title,
    readOnlyHint: operation.readOnly ?? operation.http.method === 'GET',
    destructiveHint: operation.destructive ?? false,
    idempotentHint: operation.idempotent ?? true,
    openWorldHint: operation.openWorld ?? false,
  };
}

/**
 * An operation, defined once: its input schema (zod), what it does over the ports, and how its
 * answer reads in Markdown. REST routes, MCP tools and the OpenAPI document are generated from the
 * table of operations (index.ts), so the surfaces cannot drift apart.
 */
import type * as z from 'zod';
import type { CompanyStore, Plan, SearchIndex, WatchlistStore } from '../ports.ts';

export interface OperationDeps {
  store: CompanyStore;
  search: SearchIndex;
  watchlists: WatchlistStore;
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

export interface Operation<Input extends z.ZodObject = z.ZodObject, Result extends object = object> {
  /** The MCP tool name. */
  name: string;
  title: string;
  /** For the model choosing a tool, and the OpenAPI description: purpose, arguments, result. */
  description: string;
  http: {
    method: 'GET' | 'POST';
    path: string;
    /** REST parameter names that differ from the tool's argument names: `{ number: 'company_number' }`. */
    rename?: Readonly<Record<string, string>>;
  };
  input: Input;
  /** False for the answers that exist only as Markdown (watchlist add and remove). */
  json: boolean;
  /**
   * Requests of the monthly quota a call takes, from its valid input: one when left out. A batch
   * (lookup_companies) counts each company; an input refused (400) counts one.
   */
  cost?(input: z.output<Input>): number;
  /** Reads only, though sent by POST (a batch body): the MCP tool says so. Default: GET reads only. */
  readOnly?: boolean;
  run(deps: OperationDeps, input: z.output<Input>, context: CallContext): Promise<Result>;
  toMarkdown(result: Result): string;
}

export function defineOperation<Input extends z.ZodObject, Result extends object>(
  operation: Operation<Input, Result>,
): Operation<Input, Result> {
  return operation;
}

/**
 * From what a caller sent to an operation's input, for every surface: a query string or a JSON
 * body (REST names to argument names, query strings to numbers where the schema wants numbers,
 * unknown or repeated parameters refused), a tool's arguments (MCP), a form (the web pages); and
 * zod's issues turned into one 400 message that names the parameter the caller sent.
 */
import * as z from 'zod';
import { invalidInput } from '../errors.ts';
import type { Operation } from '../operations/operation.ts';

/** The largest request body accepted, JSON or form: a larger one is refused (413) unread. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Parameters every operation accepts besides its own: the answer's shape, and the key (access.ts). */
const COMMON = new Set(['format', 'key']);

/**
 * The input from the query string (GET and DELETE), with the path's parameters (`params`, as
 * the router decoded them). A path parameter is not accepted in the query too.
 */
export function inputFromQuery(
  operation: Operation,
  query: Record<string, string | string[] | undefined>,
  params: Readonly<Record<string, string>> = {},
): unknown {
  const inPath = pathParameters(operation);
  const accepted = restNames(operation).filter((name) => !inPath.includes(name));
  // A renamed argument is accepted under the tool's name too (company_number beside number), so
  // that an agent moving between MCP and REST need not learn two spellings.
  const aliases = Object.values(operation.http.rename ?? {}).filter(
    (key) => !inPath.includes(restName(operation, key)),
  );
  const input = inputFromPath(operation, params);
  for (const [param, value] of Object.entries(query)) {
    if (COMMON.has(param)) continue;
    if (!accepted.includes(param) && !aliases.includes(param))
      throw invalidInput(
        `Unknown parameter "${param}". Accepted: ${accepted.length > 0 ? accepted.join(', ') : 'none'} (and format, key).`,
      );
    if (Array.isArray(value)) throw invalidInput(`Parameter "${param}" is given more than once.`);
    const key = argumentName(operation, param);
    if (key in input)
      throw invalidInput(`Parameters "${restName(operation, key)}" and "${key}" are one parameter: send one of them.`);
    input[key] = fromText(operation, key, value!);
  }
  return input;
}

/** The REST names of the `{name}` segments of an operation's path, in order. */
export function pathParameters(operation: Operation): string[] {
  return [...operation.http.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

/** The path's parameters as arguments: text turned into numbers and booleans as the query's are. */
function inputFromPath(operation: Operation, params: Readonly<Record<string, string>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const param of pathParameters(operation)) {
    const value = params[param];
    const key = argumentName(operation, param);
    if (value !== undefined) input[key] = fromText(operation, key, value);
  }
  return input;
}

/** A query or path value as the argument `key` wants it, or the text, for zod to refuse naming it. */
function fromText(operation: Operation, key: string, value: string): unknown {
  const schema = (operation.input.shape as Record<string, z.ZodType>)[key]!;
  return wantsNumber(schema) ? toNumber(value) : wantsBoolean(schema) ? toBoolean(value) : value;
}

/** Stands for a request body that was not valid JSON. */
export const MALFORMED = Symbol('malformed body');

/**
 * The input from a JSON body (POST), with the path's parameters (`params`). An operation whose
 * arguments are all in its path takes no body: none, or an empty object. A path parameter is not
 * accepted in the body too.
 */
export function inputFromBody(
  operation: Operation,
  body: unknown,
  params: Readonly<Record<string, string>> = {},
): unknown {
  if (body === MALFORMED) throw invalidInput('The request body is not valid JSON.');
  const fields = bodyFields(operation);
  if (fields.length === 0 && body === undefined) return inputFromPath(operation, params);
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalidInput('Send a JSON object body with Content-Type: application/json.');
  for (const key of Object.keys(body)) {
    if (!fields.includes(key))
      throw invalidInput(`Unknown field "${key}". Accepted: ${fields.length > 0 ? fields.join(', ') : 'none'}.`);
  }
  return { ...body, ...inputFromPath(operation, params) };
}

/** The arguments a POST takes in its body: all but those in its path. */
export function bodyFields(operation: Operation): string[] {
  const inPath = pathParameters(operation).map((param) => argumentName(operation, param));
  return Object.keys(operation.input.shape).filter((key) => !inPath.includes(key));
}

/**
 * The input from an MCP tool's arguments, named as the tool names them. As REST refuses unknown
 * parameters, an unknown argument is refused: a misspelt filter must not be silently dropped.
 */
export function inputFromArguments<Input extends z.ZodObject>(
  operation: Operation<Input>,
  args: Record<string, unknown>,
): z.output<Input> {
  const accepted = Object.keys(operation.input.shape);
  const unknown = Object.keys(args).find((key) => !accepted.includes(key));
  if (unknown !== undefined)
    throw invalidInput(`Unknown argument "${unknown}". Accepted: ${accepted.join(', ') || 'none'}.`);
  return parseInput(operation, args, (key) => key);
}

/** An operation's input read before the call is counted, and what the call costs. */
export interface InputAhead<Value> {
  /** Requests of the quota the call takes: the operation's cost of a valid input, else one. */
  cost: number;
  /** The input, or the refusal of it, thrown now: once the call is counted, as a 400 is. */
  take(): Value;
}

/**
 * Read the input ahead of counting, since a batch costs one request per company it asks for. A
 * refusal is kept for `take`, so that the call is still counted (one) and refused in the order it
 * always was: key, quota, then input.
 */
export function readInputAhead<Input extends z.ZodObject>(
  operation: Operation<Input>,
  read: () => z.output<Input>,
): InputAhead<z.output<Input>> {
  try {
    const value = read();
    return { cost: operation.cost?.(value) ?? 1, take: () => value };
  } catch (error) {
    return {
      cost: 1,
      take: () => {
        throw error;
      },
    };
  }
}

/**
 * The operation's input from what the caller sent, or a 400 naming the parameter (as `nameOf`
 * calls it: the REST name by default, the argument name over MCP). Text no database can store or
 * no person meant (NUL and other control characters, lone surrogates) is refused here, for every
 * operation, before any of it reaches a store.
 */
export function parseInput<Input extends z.ZodObject>(
  operation: Operation<Input>,
  raw: unknown,
  nameOf: (key: string) => string = (key) => restName(operation, key),
): z.output<Input> {
  const unsafe = unsafeTextIssue(raw, nameOf);
  if (unsafe !== null) throw invalidInput(unsafe);
  const result = operation.input.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw invalidInput(describeIssue(issue, raw as Record<string, unknown>, nameOf));
}

// C0 controls but tab, line feed and carriage return; DEL. PostgreSQL cannot store NUL in text.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Where a value sits in the input, built back to a name only for the message. */
interface Place {
  step: string;
  parent: Place | null;
}

function placeName(place: Place | null): string {
  let name = '';
  for (let at = place; at !== null; at = at.parent) name = `${at.step}${name}`;
  return name;
}

/**
 * Why a text somewhere in `raw` is refused, naming its parameter; null when all text is fine.
 * Walked with a stack of its own: a body of nested arrays 30,000 deep must not overflow ours.
 */
export function unsafeTextIssue(raw: unknown, nameOf: (key: string) => string = (key) => key): string | null {
  const pending: [unknown, Place | null][] = [[raw, null]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, place] = next;
    if (typeof value === 'string') {
      if (CONTROL_CHARACTER.test(value))
        return `Invalid "${placeName(place)}": must not contain control characters (such as a NUL byte).`;
      if (LONE_SURROGATE.test(value))
        return `Invalid "${placeName(place)}": must be valid Unicode text (it has a lone surrogate).`;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push([value[i], { step: `[${i}]`, parent: place }]);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value).reverse())
        pending.push([item, { step: place === null ? nameOf(key) : `.${key}`, parent: place }]);
    }
  }
  return null;
}

/** One sentence naming the parameter (as `nameOf` calls it) and what is wrong with it. */
export function describeIssue(
  issue: z.core.$ZodIssue,
  raw: Record<string, unknown>,
  nameOf: (key: string) => string = (key) => key,
): string {
  const key = String(issue.path[0] ?? '');
  const param = `${nameOf(key)}${issue.path
    .slice(1)
    .map((p) => `[${String(p)}]`)
    .join('')}`;
  if (key !== '' && raw[key] === undefined && issue.path.length === 1) {
    const options = 'values' in issue && Array.isArray(issue.values) ? `: one of ${issue.values.join(', ')}` : '';
    return `Missing required parameter "${param}"${options}.`;
  }
  if (issue.code === 'invalid_type' && issue.expected === 'number') return `Invalid "${param}": must be a number.`;
  if (issue.code === 'invalid_type')
    return `Invalid "${param}": must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}.`;
  return `Invalid "${param}": ${issue.message}${/[.!?]$/.test(issue.message) ? '' : '.'}`;
}

/** The REST name of an argument (`company_number` is `number` on GET /v1/company). */
export function restName(operation: Operation, key: string): string {
  const renamed = Object.entries(operation.http.rename ?? {}).find(([, argument]) => argument === key);
  return renamed ? renamed[0] : key;
}

function restNames(operation: Operation): string[] {
  return Object.keys(operation.input.shape).map((key) => restName(operation, key));
}

function argumentName(operation: Operation, param: string): string {
  return operation.http.rename?.[param] ?? param;
}

function wantsNumber(schema: z.ZodType): boolean {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
  return inner instanceof z.ZodNumber;
}

function wantsBoolean(schema: z.ZodType): boolean {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
  return inner instanceof z.ZodBoolean;
}

/** true or false when the text says so (`true`, `false`, any case); otherwise the text, for zod to refuse. */
function toBoolean(text: string): boolean | string {
  const word = text.trim().toLowerCase();
  return word === 'true' ? true : word === 'false' ? false : text;
}

/** A number when the text is one; otherwise the text, for zod to refuse with the parameter's name. */
function toNumber(text: string): number | string {
  return /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(text) ? Number(text) : text;
}

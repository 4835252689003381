/**
 * The OpenAPI 3.0.3 document, generated from the operation table: every operation's path,
 * parameters (from its zod input schema, under their REST names), and the answers it can give.
 */
import * as z from 'zod';
import { withEnvelopeSchema } from '../operations/envelope.ts';
import type { Operation } from '../operations/operation.ts';
import { BODY_LIMIT_BYTES, bodyFields, pathParameters, restName } from '../call/input.ts';

type Schema = Record<string, unknown>;

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

export function openApiDocument(operations: readonly Operation[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    // Spread: two operations may share a path with different methods (GET and POST /v1/webhooks).
    paths[operation.http.path] = {
      ...paths[operation.http.path],
      [operation.http.method.toLowerCase()]: operationObject(operation),
    };
  }
  paths['/v1/keys/free'] = FREE_KEY_PATH;
  return withNullInEnums({
    openapi: '3.0.3',
    info: {
      title: 'UK Company Data API',
      version: '0.2.0',
      // The data's licence, which is what a client of the API needs to know about reuse.
      license: {
        name: 'Data: Open Government Licence v3.0',
        url: 'https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/',
      },
      description:
        'Every company on the Companies House register and the figures of its machine-readable accounts. ' +
        'Figures as filed, in GBP; null means not filed. Not a credit rating. Also served as MCP tools at /mcp.',
    },
    servers: [{ url: '/' }],
    paths,
    components: components(operations),
  });
}

/**
 * OpenAPI 3.0's `nullable: true` widens `type` but not `enum`: a nullable enum must list `null`
 * among its values, or validators (ajv) and generated clients refuse every answer holding null
 * there (a controller without a share band, a company whose PSC records were not read). zod writes
 * `nullable` beside the enum without it; added here, for every schema in the document.
 */
function withNullInEnums<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withNullInEnums) as T;
  if (node === null || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withNullInEnums(value)]));
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out as T;
}

/** An operation's input schema as OpenAPI writes it, with its properties and the required ones. */
interface InputSchema {
  schema: Schema;
  properties: Record<string, Schema>;
  required: Set<string>;
}

function inputSchemaOf(operation: Operation): InputSchema {
  const schema = z.toJSONSchema(operation.input, { target: 'openapi-3.0', io: 'input' }) as Schema;
  return {
    schema,
    properties: (schema.properties ?? {}) as Record<string, Schema>,
    required: new Set((schema.required ?? []) as string[]),
  };
}

/** The Operation Object of one operation of the table: its parameters, body and answers. */
function operationObject(operation: Operation): Record<string, unknown> {
  const input = inputSchemaOf(operation);
  // A POST's body: its arguments but those in its path.
  const fields = operation.http.method === 'POST' ? bodyFields(operation) : [];
  return {
    operationId: operation.name,
    summary: operation.title,
    description: `${operation.description}\n\nAlso the MCP tool \`${operation.name}\`.`,
    security: [{ bearer: [] }, { key: [] }],
    parameters: [...parametersOf(operation, input, fields), formatParameter(operation)],
    // An operation whose arguments are all in its path takes no body.
    ...(fields.length > 0
      ? { requestBody: { required: true, content: { 'application/json': { schema: bodySchema(input, fields) } } } }
      : {}),
    responses: responses(operation),
  };
}

/** The arguments not in the body as query or path parameters, under their REST names. */
function parametersOf(
  operation: Operation,
  { properties, required }: InputSchema,
  fields: readonly string[],
): Schema[] {
  const inPath = pathParameters(operation);
  return Object.entries(properties)
    .filter(([key]) => !fields.includes(key))
    .map(([key, property]) => {
      const name = restName(operation, key);
      const where = inPath.includes(name) ? 'path' : 'query';
      return {
        name,
        in: where,
        // A path parameter is always required (OpenAPI 3.0).
        required: where === 'path' || required.has(key),
        ...(property.description || name !== key
          ? { description: `${property.description ?? ''}${name !== key ? ` (also accepted as ${key})` : ''}`.trim() }
          : {}),
        schema: property,
      };
    });
}

function formatParameter(operation: Operation): Schema {
  return {
    name: 'format',
    in: 'query',
    required: false,
    description: operation.json
      ? 'json for the JSON shape; left out, the Markdown shape {"content":[{"type":"text","text":…}]}'
      : 'This answer exists only as Markdown; json is accepted and ignored.',
    schema: { type: 'string', enum: ['json'] },
  };
}

/** A POST's body schema: the input's fields but those in its path; unknown fields refused. */
function bodySchema({ schema, properties, required }: InputSchema, fields: readonly string[]): Schema {
  const { required: _required, ...schemaRest } = schema;
  const bodyRequired = [...required].filter((key) => fields.includes(key));
  return {
    ...schemaRest,
    properties: Object.fromEntries(Object.entries(properties).filter(([key]) => fields.includes(key))),
    ...(bodyRequired.length > 0 ? { required: bodyRequired } : {}),
    // Unknown fields are refused (400), not ignored: say so.
    additionalProperties: false,
  };
}

/** The answers an operation can give: its success, and the refusals that apply to it. */
function responses(operation: Operation): Record<string, unknown> {
  const status = String(operation.http.successStatus ?? 200);
  return {
    [status]: {
      description: operation.json ? 'The answer: JSON with format=json, else Markdown' : 'The answer, as Markdown',
      headers: rateLimitHeaders,
      content: {
        'application/json': {
          schema: operation.json
            ? { oneOf: [{ $ref: '#/components/schemas/Markdown' }, { $ref: resultRef(operation) }] }
            : { $ref: '#/components/schemas/Markdown' },
        },
      },
    },
    '400': errorResponse('A parameter is missing or invalid; the message names it'),
    '401': errorResponse('Missing, unknown or revoked API key'),
    ...conflictsAndAbsences(operation),
    ...(operation.http.method === 'POST' ? { '413': BODY_TOO_LARGE } : {}),
    '429': {
      ...errorResponse('Monthly quota exceeded: the body carries resets_at, Retry-After the seconds until then'),
      headers: { ...rateLimitHeaders, 'Retry-After': retryAfter('Seconds until the quota resets') },
    },
    '431': HEADERS_TOO_LARGE,
    '503': errorResponse('The database or the search engine cannot be reached right now; try again in a few seconds'),
  };
}

const BODY_TOO_LARGE = errorResponse(`A request body over ${BODY_LIMIT_BYTES / 1024} KiB, refused before it is read`);

/** Node's HTTP server answers this itself, before the request reaches the service: no body. */
const HEADERS_TOO_LARGE = {
  description: 'Request headers over 16 KiB in all: refused by the HTTP server, with no body',
};

function retryAfter(description: string): Schema {
  return { schema: { type: 'integer', minimum: 1 }, description };
}

/** The 404s and 409s of the operations that have them, in the order they are written over each other. */
function conflictsAndAbsences(operation: Operation): Record<string, unknown> {
  return {
    ...(['lookup_company', 'compare_companies', 'get_ownership', 'get_officers'].includes(operation.name)
      ? { '404': errorResponse('No company with that number on the register') }
      : {}),
    ...(operation.name === 'get_appointments'
      ? { '404': errorResponse('No appointment is held under that officer id') }
      : {}),
    ...(operation.name === 'watch_add'
      ? { '409': errorResponse('The watchlist limit of the plan would be exceeded') }
      : {}),
    ...(operation.name === 'webhook_create'
      ? { '409': errorResponse('The webhook endpoint limit of the plan is reached') }
      : {}),
    ...(pathParameters(operation).length > 0
      ? { '404': errorResponse('This key has no webhook endpoint (or delivery) of that id') }
      : {}),
    ...(operation.name === 'webhook_test'
      ? { '409': errorResponse('The endpoint is disabled: nothing is sent to it') }
      : {}),
    ...(operation.name === 'webhook_retry_delivery'
      ? { '409': errorResponse('The delivery was delivered already, or its endpoint is disabled') }
      : {}),
  };
}

/** POST /v1/keys/free, not an operation of the table (no key, no quota). */
const FREE_KEY_PATH = {
  post: {
    operationId: 'create_free_key',
    // No key: this is how a client gets one.
    security: [],
    summary: 'Get a free API key',
    description:
      'A free-plan key (50 requests a month, watchlist of 5), shown once. At most 10 an hour per client address.',
    requestBody: {
      required: false,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { email: { type: 'string', format: 'email' } },
            additionalProperties: false,
          },
        },
      },
    },
    responses: {
      '201': {
        description: 'The new key',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['api_key', 'plan', 'monthly_quota', 'note'],
              properties: {
                api_key: { type: 'string', pattern: '^ukcd_[A-Za-z0-9]{32}$' },
                plan: { type: 'string', enum: ['free'] },
                monthly_quota: { type: 'integer' },
                note: { type: 'string' },
                source: { type: 'string' },
              },
            },
          },
        },
      },
      '400': errorResponse('Invalid e-mail address or body'),
      '413': BODY_TOO_LARGE,
      '429': {
        ...errorResponse('Too many free keys from this address in the last hour'),
        headers: { 'Retry-After': retryAfter('Seconds to wait: 3600') },
      },
      '431': HEADERS_TOO_LARGE,
    },
  },
};

function components(operations: readonly Operation[]): Record<string, unknown> {
  return {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'An API key: ukcd_ and 32 characters' },
      key: {
        type: 'apiKey',
        in: 'query',
        name: 'key',
        description:
          'The same API key as ?key=, for clients that cannot send headers. A URL is kept in browser ' +
          'histories and proxy logs: prefer the Authorization header. Sent with it, both must agree (else 401).',
      },
    },
    schemas: {
      Error: ERROR_SCHEMA,
      Markdown: MARKDOWN_SCHEMA,
      ...Object.fromEntries(
        operations
          .filter((operation) => operation.json)
          .map((operation) => [resultName(operation), resultSchema(operation)]),
      ),
    },
  };
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string' },
    resets_at: { type: 'string' },
    requests_needed: {
      type: 'integer',
      description: 'A batch refused for the quota (429): the requests it needed, one a distinct company',
    },
    requests_left: { type: 'integer', description: 'A batch refused for the quota (429): the requests left' },
  },
};

const MARKDOWN_SCHEMA = {
  type: 'object',
  description: 'The Markdown shape, the same object an MCP tool returns',
  required: ['content'],
  properties: {
    content: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'text'],
        properties: { type: { type: 'string', enum: ['text'] }, text: { type: 'string' } },
      },
    },
  },
};

/** The JSON shape of an operation's answer (format=json): its output schema with the envelope. */
function resultSchema(operation: Operation): Schema {
  const { $schema: _schema, ...schema } = z.toJSONSchema(withEnvelopeSchema(operation.output), {
    target: 'openapi-3.0',
    io: 'output',
  }) as Schema;
  return {
    ...schema,
    description: `The JSON shape of ${operation.name} (format=json), with source and note: also the MCP tool's structuredContent`,
  };
}

function resultName(operation: Operation): string {
  return `${operation.name}_result`;
}

function resultRef(operation: Operation): string {
  return `#/components/schemas/${resultName(operation)}`;
}

const rateLimitHeaders = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests a month on this plan' },
  'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Requests left this month' },
  'X-RateLimit-Reset': {
    schema: { type: 'integer' },
    description: 'Epoch seconds of the next 1st of the month, 00:00 UTC',
  },
};

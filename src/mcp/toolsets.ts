/**
 * Toolsets: a client that wants a small context chooses groups of tools with
 * `/mcp?toolsets=core,ownership` instead of all twenty-two. Without the parameter the endpoint
 * lists every tool, with its output schema, as it always has. A chosen list leaves the output
 * schemas out (about two thirds of tools/list: `core` is about 28 KB without them, 91 KB with
 * them) unless `output_schemas=true` asks for them; the answers carry structuredContent either way.
 */

/** Every toolset and its tools, by operation name; each operation is in exactly one. */
export const TOOLSETS: Readonly<Record<string, readonly string[]>> = {
  /** The contract's eleven tools and the batch lookup. */
  core: [
    'lookup_company',
    'lookup_companies',
    'search_by_name',
    'search_companies',
    'compare_companies',
    'market_stats',
    'find_triggers',
    'recent_changes',
    'watch_list',
    'watch_add',
    'watch_remove',
    'get_alerts',
  ],
  /** Persons with significant control, officers and the ownership graph. */
  ownership: ['get_ownership', 'search_people', 'get_officers', 'get_appointments'],
  /** Webhook endpoints for alerts, and their deliveries. */
  webhooks: [
    'webhook_create',
    'webhook_list',
    'webhook_test',
    'webhook_rotate_secret',
    'webhook_deliveries',
    'webhook_retry_delivery',
    'webhook_delete',
  ],
};

/** What a request to /mcp asked to be listed. */
export interface ToolSelection {
  /** The chosen toolsets' names in the order of TOOLSETS; undefined for every tool. */
  toolsets?: readonly string[];
  outputSchemas: boolean;
}

/** The selection a query string makes, or the error naming what is wrong with it. */
export function toolSelection(query: Record<string, string | string[] | undefined>): ToolSelection | string {
  const { toolsets, output_schemas: schemas } = query;
  if (Array.isArray(toolsets) || Array.isArray(schemas))
    return 'Give "toolsets" and "output_schemas" once each (toolsets=core,ownership).';
  if (schemas !== undefined && schemas !== 'true' && schemas !== 'false')
    return `Invalid "output_schemas": true or false, not "${schemas}".`;
  if (toolsets === undefined) return { outputSchemas: schemas !== 'false' };
  const names = toolsets.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !(name in TOOLSETS));
  if (unknown !== undefined)
    return `Unknown toolset "${unknown}" in "toolsets". Toolsets: ${Object.keys(TOOLSETS).join(', ')}.`;
  return {
    toolsets: Object.keys(TOOLSETS).filter((name) => names.includes(name)),
    outputSchemas: schemas === 'true',
  };
}

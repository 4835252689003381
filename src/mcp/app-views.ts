/**
 * MCP App views (the MCP Apps extension, `io.modelcontextprotocol/ui`, spec 2026-01-26): a
 * `ui://` HTML document that a host supporting the extension reads with resources/read and shows
 * in a sandboxed iframe beside the result of each tool that names it in `_meta.ui.resourceUri`.
 * The tool's result is not changed: a host without the extension ignores the `_meta` and reads
 * the Markdown and structuredContent as before. The documents come from the surface that draws
 * them (the web pages' company card); this endpoint only lists and serves them.
 */
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/server';

/** The MIME type the extension gives an App's HTML document. */
const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** A view, as the composition hands it to the MCP route. */
export interface McpAppView {
  uri: `ui://${string}`;
  name: string;
  title: string;
  description: string;
  /** The tools whose results it shows. */
  tools: readonly string[];
  /** The HTML document, complete: every script and style inline, nothing fetched from elsewhere. */
  html(): Promise<string>;
}

/**
 * The tool list with each tool a view shows carrying its `_meta.ui.resourceUri`. Not the flat
 * `ui/resourceUri` key as well, which the stable spec deprecates: every client reads tools/list
 * on every connection, and `core` has to stay under 8,000 tokens.
 */
export function withViews(tools: Tool[], views: readonly McpAppView[]): Tool[] {
  return tools.map((tool) => {
    const view = views.find((v) => v.tools.includes(tool.name));
    if (!view) return tool;
    return { ...tool, _meta: { ...tool._meta, ui: { resourceUri: view.uri } } };
  });
}

/** The views as resources/list gives them. */
export function viewResources(views: readonly McpAppView[]): Resource[] {
  return views.map(({ uri, name, title, description }) => ({ uri, name, title, description, mimeType: APP_MIME_TYPE }));
}

/**
 * resources/read of a view: its document, with the extension's CSP declaration empty (no
 * connect, resource, frame or base-URI domains: the host's most restrictive policy, nothing
 * external) and a request for the host's border.
 */
export async function readView(views: readonly McpAppView[], uri: string): Promise<ReadResourceResult> {
  const view = views.find((v) => v.uri === uri);
  if (!view)
    throw new ResourceNotFoundError(uri, `No resource ${uri}. Resources: ${views.map((v) => v.uri).join(', ')}.`);
  return {
    contents: [
      {
        uri: view.uri,
        mimeType: APP_MIME_TYPE,
        text: await view.html(),
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
      },
    ],
  };
}

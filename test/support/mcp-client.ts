/**
 * An MCP client of the service over Streamable HTTP, as an agent connects: signed in with a key
 * (the Authorization header) or anonymous.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** A client connected to `${serviceUrl}/mcp`; close it when done. */
export async function connectMcp(serviceUrl: string, key: string | null = null): Promise<Client> {
  const client = new Client({ name: 'ukcd-test', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${serviceUrl}/mcp`), {
      requestInit: key === null ? {} : { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

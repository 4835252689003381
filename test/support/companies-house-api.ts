/**
 * A stand-in for the Companies House Public Data and Document APIs over real HTTP. Tests give it
 * JSON by path and documents by id (metadata plus content by type; content is served the way the
 * real Document API does, by a redirect to a storage URL that refuses an Authorization header).
 * Faults: the next answers of a path can be a status (429 with Retry-After, 500, …) or a reset.
 * It records every request with its Authorization and Accept headers.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface ApiRequest {
  path: string;
  authorization: string | null;
  accept: string | null;
}

type Fault = { status: number; retryAfter?: string } | 'reset';

/** An accounts filing of a company's history: its document's id and the date its accounts are made up to. */
interface AccountsFilingPlan {
  documentId: string;
  madeUpDate: string;
  transactionId?: string;
}

/** The path the filing history of accounts is read from (the first page of 100). */
export const accountsHistoryPath = (companyNumber: string) =>
  `/company/${companyNumber}/filing-history?category=accounts&items_per_page=100&start_index=0`;

export interface FakeCompaniesHouseApi {
  url: string;
  requests: ApiRequest[];
  /** Serve `body` as JSON at `path` (the path with its query, as requested). */
  json(path: string, body: unknown): void;
  /** A document: its metadata (resources listed from `contents`) and its content by type. */
  document(id: string, companyNumber: string, contents: Record<string, Buffer>): void;
  /**
   * A company's filing history of accounts, one page as the Public Data API lists it (newest
   * first), each filing linking to its document's metadata here; serve the documents with `document`.
   */
  accountsHistory(companyNumber: string, filings: readonly AccountsFilingPlan[]): void;
  /** The next `times` requests for `path` meet `fault` instead of their answer. */
  fail(path: string, fault: Fault, times?: number): void;
  close(): Promise<void>;
}

export async function startFakeCompaniesHouseApi(): Promise<FakeCompaniesHouseApi> {
  const json = new Map<string, unknown>();
  const documents = new Map<string, { companyNumber: string; contents: Record<string, Buffer> }>();
  const faults = new Map<string, Fault[]>();
  const requests: ApiRequest[] = [];

  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, authorization: req.headers.authorization ?? null, accept: req.headers.accept ?? null });
    const fault = faults.get(path)?.shift();
    if (fault === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault) {
      res.writeHead(fault.status, fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter });
      res.end();
      return;
    }
    answer(req, res, path);
  });

  function answer(req: IncomingMessage, res: ServerResponse, path: string): void {
    if (json.has(path)) return send(res, 200, 'application/json', JSON.stringify(json.get(path)));
    const storage = /^\/storage\/([^/]+)\/(.+)$/.exec(path);
    if (storage) return serveStorage(req, res, decodeURIComponent(storage[1]!), decodeURIComponent(storage[2]!));
    const content = /^\/document\/([^/]+)\/content$/.exec(path);
    if (content) return redirectToStorage(req, res, decodeURIComponent(content[1]!));
    const metadata = /^\/document\/([^/]+)$/.exec(path);
    const document = metadata ? documents.get(decodeURIComponent(metadata[1]!)) : undefined;
    if (metadata && document)
      return send(res, 200, 'application/json', JSON.stringify(metadataJson(metadata[1]!, document)));
    send(res, 404, 'application/json', JSON.stringify({ errors: [{ error: 'not-found', type: 'ch:service' }] }));
  }

  function redirectToStorage(req: IncomingMessage, res: ServerResponse, id: string): void {
    const type = req.headers.accept ?? '';
    const document = documents.get(id);
    if (!document) return send(res, 404, 'application/json', '{}');
    if (!document.contents[type]) return send(res, 406, 'application/json', '{}');
    res.writeHead(302, { location: `${storageOrigin}/storage/${encodeURIComponent(id)}/${encodeURIComponent(type)}` });
    res.end();
  }

  function serveStorage(req: IncomingMessage, res: ServerResponse, id: string, type: string): void {
    // Signed storage URLs refuse a second form of authorisation, as S3 does.
    if (req.headers.authorization)
      return send(res, 400, 'application/xml', '<Error>Only one auth mechanism allowed</Error>');
    const body = documents.get(id)?.contents[type];
    if (!body) return send(res, 404, 'application/xml', '<Error>NoSuchKey</Error>');
    res.writeHead(200, { 'content-type': type, 'content-length': body.length });
    res.end(body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  // Another origin for the same server, so that the redirect to storage crosses origins.
  const storageOrigin = `http://localhost:${port}`;

  return {
    url,
    requests,
    json: (path, body) => void json.set(path, body),
    document: (id, companyNumber, contents) => void documents.set(id, { companyNumber, contents }),
    accountsHistory(companyNumber, filings) {
      const items = filings.map((filing, i) => ({
        transaction_id: filing.transactionId ?? `T${companyNumber}${i}`,
        category: 'accounts',
        type: 'AA',
        date: filing.madeUpDate,
        description: 'accounts-with-accounts-type-micro-entity',
        description_values: { made_up_date: filing.madeUpDate },
        links: {
          self: `/company/${companyNumber}/filing-history/T${companyNumber}${i}`,
          // Absolute, on the Document API's own host, as the real history links it.
          document_metadata: `${url}/document/${encodeURIComponent(filing.documentId)}`,
        },
        pages: 3,
      }));
      json.set(accountsHistoryPath(companyNumber), {
        etag: '',
        filing_history_status: 'filing-history-available',
        items,
        items_per_page: 100,
        kind: 'filing-history',
        start_index: 0,
        total_count: items.length,
      });
    },
    fail(path, fault, times = 1) {
      faults.set(path, [...(faults.get(path) ?? []), ...Array.from({ length: times }, () => fault)]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function metadataJson(id: string, document: { companyNumber: string; contents: Record<string, Buffer> }) {
  return {
    company_number: document.companyNumber,
    barcode: `X${id.slice(0, 7).toUpperCase()}`,
    significant_date: null,
    significant_date_type: '',
    category: 'accounts',
    pages: 1,
    etag: '',
    links: { self: `/document/${id}`, document: `/document/${id}/content` },
    resources: Object.fromEntries(
      Object.entries(document.contents).map(([type, body]) => [type, { content_length: body.length }]),
    ),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

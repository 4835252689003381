/**
 * A stand-in for the Companies House download service over real HTTP: the register, accounts and
 * PSC pages listing the files of a folder, and the files themselves with ETags and byte ranges, as
 * the real service serves them. Tests can make it drop a connection part-way through a file,
 * ignore ranges, list links of their own (a hostile page), and they read back every request it
 * answered.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

interface ServedRequest {
  file: string;
  range: string | null;
  status: number;
}

export interface DownloadService {
  url: string;
  dir: string;
  requests: ServedRequest[];
  /** The next request for `file` sends this many bytes of its body, then drops the connection. */
  dropNext(file: string, afterBytes: number): void;
  /** Answer range requests with the whole file (200), as servers without range support do. */
  ignoreRanges: boolean;
  /**
   * Links listed on a page besides the folder's files, written as given (`..%2Fx.zip`); a request
   * for one (its path decoded) is answered with the contents of `file`.
   */
  extraLinks: { page: keyof typeof PAGES; href: string; file: string }[];
  /** Requests for files (not pages), by file name. */
  fileRequests(file: string): ServedRequest[];
  close(): Promise<void>;
}

/** Each page, and the files of the folder it lists (by how their names start). */
const PAGES = {
  'en_output.html': ['BasicCompanyData'],
  'en_accountsdata.html': ['Accounts_Bulk_Data'],
  'en_pscdata.html': ['persons-with-significant-control-snapshot', 'psc-snapshot'],
} as const;

function isPage(name: string): name is keyof typeof PAGES {
  return Object.hasOwn(PAGES, name);
}

export async function startDownloadService(dir: string): Promise<DownloadService> {
  const requests: ServedRequest[] = [];
  const drops = new Map<string, number>();
  const service: DownloadService = {
    url: '',
    dir,
    requests,
    dropNext: (file, afterBytes) => void drops.set(file, afterBytes),
    ignoreRanges: false,
    extraLinks: [],
    fileRequests: (file) => requests.filter((r) => r.file === file),
    close: () => new Promise((done) => server.close(() => done())),
  };

  const server = createServer((req, res) => {
    void (async () => {
      const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
      const range = req.headers.range ?? null;
      const record = (status: number) => requests.push({ file: name, range, status });
      if (isPage(name)) {
        const files = (await readdir(dir)).filter((f) => PAGES[name].some((start) => f.startsWith(start)));
        record(200);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const extra = service.extraLinks.filter((link) => link.page === name).map((link) => link.href);
        res.end(listingPage([...files, ...extra]));
        return;
      }
      const extra = service.extraLinks.find((link) => decodeURIComponent(link.href) === name);
      const path = extra ? extra.file : join(dir, name);
      const info = await stat(path).catch(() => null);
      if (!name || (name.includes('/') && !extra) || !info?.isFile()) {
        record(404);
        res.writeHead(404).end('not found');
        return;
      }
      const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
      const ifRange = req.headers['if-range'];
      const asked = /^bytes=(\d+)-$/.exec(range ?? '');
      let start = 0;
      if (asked && !service.ignoreRanges && (ifRange === undefined || ifRange === etag)) {
        start = Number(asked[1]);
        if (start >= info.size) {
          record(416);
          res.writeHead(416, { 'content-range': `bytes */${info.size}` }).end();
          return;
        }
        record(206);
        res.writeHead(206, {
          etag,
          'content-length': info.size - start,
          'content-range': `bytes ${start}-${info.size - 1}/${info.size}`,
          'accept-ranges': 'bytes',
        });
      } else {
        record(200);
        res.writeHead(200, { etag, 'content-length': info.size, 'accept-ranges': 'bytes' });
      }
      const drop = drops.get(name);
      drops.delete(name);
      const body = createReadStream(path, {
        start,
        ...(drop !== undefined ? { end: start + drop - 1 } : {}),
      });
      if (drop === undefined) {
        body.pipe(res);
        return;
      }
      // Send the first bytes, then cut the connection as a failing network would.
      body.on('data', (chunk) => res.write(chunk));
      body.on('end', () => setTimeout(() => res.socket?.destroy(), 20));
    })().catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return service;
}

/** Links as the real pages write them: relative, with the size after each. */
function listingPage(files: readonly string[]): string {
  const items = files.map((f) => `<li><a href="${f}">${f}</a> (1Mb)</li>`).join('\n');
  return `<!DOCTYPE html><html><head><title>Free Company Data Product</title></head>
<body><div id="content"><h1>Download</h1><ul>
${items}
</ul><p><a href="index.html">Home</a></p></div></body></html>`;
}

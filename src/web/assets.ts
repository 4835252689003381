/**
 * The pages' static files: everything in src/web/assets/ (stylesheet, small dependency-free
 * scripts), read once at start-up and served at /assets/<name> with a content hash as ETag. No
 * CDN and no build step: the files are served as they are in the repository.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type Router from '@koa/router';

const TYPES: Readonly<Record<string, string>> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface Asset {
  type: string;
  body: Buffer;
  etag: string;
}

const ASSETS_DIR = join(import.meta.dirname, 'assets');

/** Every file of `dir` whose type is served, by name. */
export function readAssets(dir: string = ASSETS_DIR): ReadonlyMap<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir).sort()) {
    const type = TYPES[extname(name)];
    if (type === undefined) continue;
    const body = readFileSync(join(dir, name));
    assets.set(name, { type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
  }
  return assets;
}

/** Where the assets are served. */
export const ASSETS_PATH = '/assets/';

/** GET /assets/:name, revalidated by ETag after an hour. */
export function addAssetRoutes(router: Router, assets: ReadonlyMap<string, Asset>): void {
  router.get('web_asset', `${ASSETS_PATH}:name`, (ctx) => {
    const asset = assets.get(ctx.params.name ?? '');
    if (!asset) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'No such file.';
      return;
    }
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('ETag', asset.etag);
    if (ctx.get('if-none-match') === asset.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = asset.type;
    ctx.body = asset.body;
  });
}

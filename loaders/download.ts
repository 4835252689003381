/**
 * Inputs given as URLs are downloaded into DATA_DIR/downloads first, under their own file name
 * (which carries the snapshot or publication date), then loaded like local files.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export function isUrl(input: string): boolean {
  return /^https?:\/\//i.test(input);
}

export async function downloadInputs(
  inputs: readonly string[],
  dataDir: string,
  log: (line: string) => void,
): Promise<string[]> {
  const paths: string[] = [];
  for (const input of inputs) {
    if (!isUrl(input)) {
      paths.push(input);
      continue;
    }
    const dir = join(dataDir, 'downloads');
    await mkdir(dir, { recursive: true });
    const target = join(dir, basename(new URL(input).pathname) || 'download');
    log(`downloading ${input}`);
    const response = await fetch(input);
    if (!response.ok || !response.body) throw new Error(`${input}: HTTP ${response.status}`);
    // Written under a temporary name, so a broken download is never mistaken for a whole file.
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(`${target}.part`));
    await rename(`${target}.part`, target);
    paths.push(target);
  }
  return paths;
}

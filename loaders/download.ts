/**
 * Inputs given as URLs are downloaded into DATA_DIR/downloads first, under their own file name
 * (which carries the snapshot or publication date), then loaded like local files. Downloads are
 * resumable, as `ukcd sync`'s are: a dropped connection is retried from the bytes held.
 */
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { downloadResumable } from './sync/resumable-download.ts';
import type { DownloadOptions } from './sync/resumable-download.ts';

export function isUrl(input: string): boolean {
  return /^https?:\/\//i.test(input);
}

export async function downloadInputs(
  inputs: readonly string[],
  { dataDir, log, ...options }: Omit<DownloadOptions, 'log'> & { dataDir: string; log: (line: string) => void },
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
    paths.push((await downloadResumable(input, target, { ...options, log })).path);
  }
  return paths;
}

/**
 * Where the real sample files live: `../shared/samples` beside the repository (CI lays shared/
 * out there), or SAMPLES_DIR. A missing folder is a failure, never a silent skip.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const samplesDir = process.env.SAMPLES_DIR ?? join(repoRoot, '..', 'shared', 'samples');

if (!existsSync(join(samplesDir, 'MANIFEST.md'))) {
  throw new Error(`Sample files not found at ${samplesDir}: set SAMPLES_DIR or lay out ../shared/samples.`);
}

export const accountsSamplesDir = join(samplesDir, 'accounts');
export const registerSamplesDir = join(samplesDir, 'register');
export { repoRoot };

/**
 * The real Elasticsearch for tests: UKCD_TEST_ELASTICSEARCH_URL, else started by
 * scripts/elasticsearch.sh. A server that cannot be started is a failure, never a skip.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './samples.ts';

let url: string | null = process.env.UKCD_TEST_ELASTICSEARCH_URL ?? null;

export function elasticsearchUrl(): string {
  if (url) return url;
  const run = spawnSync('bash', [join(repoRoot, 'scripts', 'elasticsearch.sh')], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`scripts/elasticsearch.sh could not start Elasticsearch:\n${run.stderr}`);
  url = run.stdout.trim();
  return url;
}

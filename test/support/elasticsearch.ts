/**
 * The real Elasticsearch for tests (scripts/elasticsearch.sh).
 */
import { serviceUrl } from './service-url.ts';

export function elasticsearchUrl(): string {
  return serviceUrl('UKCD_TEST_ELASTICSEARCH_URL', 'elasticsearch.sh');
}

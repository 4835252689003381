/** The Companies House API client the service and the CLI share, when CH_API_KEY is set. */
import type { Config } from '../config.ts';
import { createCompaniesHouseApi } from '../adapters/companies-house/api-client.ts';
import type { CompaniesHouseApi } from '../ports/companies-house-api.ts';

export function openCompaniesHouseApi(config: Config): CompaniesHouseApi | null {
  if (!config.CH_API_KEY) return null;
  return createCompaniesHouseApi({
    apiUrl: config.CH_API_URL,
    documentApiUrl: config.CH_DOCUMENT_API_URL,
    key: config.CH_API_KEY,
  });
}

/**
 * The table of operations: every REST route, MCP tool and OpenAPI path comes from this list.
 */
import { compareCompanies } from './compare-companies.ts';
import { findTriggers } from './find-triggers.ts';
import { getAppointments } from './get-appointments.ts';
import { getOfficers } from './get-officers.ts';
import { getOwnership } from './get-ownership.ts';
import { lookupCompanies } from './lookup-companies.ts';
import { lookupCompany } from './lookup-company.ts';
import { marketStats } from './market-stats.ts';
import type { AnyOperation } from './operation.ts';
import { recentChanges } from './recent-changes.ts';
import { searchByName } from './search-by-name.ts';
import { searchCompanies } from './search-companies.ts';
import { searchPeople } from './search-people.ts';
import { getAlerts, watchAdd, watchList, watchRemove } from './watchlist.ts';
import {
  webhookCreate,
  webhookDeliveries,
  webhookDelete,
  webhookList,
  webhookRetryDelivery,
  webhookRotateSecret,
  webhookTest,
} from './webhooks.ts';

export const OPERATIONS: readonly AnyOperation[] = [
  lookupCompany,
  lookupCompanies,
  searchByName,
  searchCompanies,
  searchPeople,
  getOwnership,
  getOfficers,
  getAppointments,
  compareCompanies,
  marketStats,
  findTriggers,
  recentChanges,
  watchList,
  watchAdd,
  watchRemove,
  webhookCreate,
  webhookList,
  webhookTest,
  webhookRotateSecret,
  webhookDeliveries,
  webhookRetryDelivery,
  webhookDelete,
  getAlerts,
];

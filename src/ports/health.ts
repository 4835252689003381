/** The readiness check of a backing server. Adapter: src/adapters/postgres/company-store.ts. */

export interface Health {
  /** Answers when the database does (readiness): one trivial round trip, whatever the data's size. */
  ping(): Promise<void>;
}

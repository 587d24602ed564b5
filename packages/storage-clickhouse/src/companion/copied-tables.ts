export interface CopiedTable {
  /** The copy's sorting key (its columns that exist are used). */
  readonly orderBy: ReadonlyArray<string>
}

/**
 * Companion tables that analyses on ClickHouse join with events and that core
 * writes without telling the adapter, and the ClickHouse sorting key of each
 * one's copy. Their rows are the companion's (core writes them in
 * transactions); ClickHouse holds copies, refreshed before a read that names
 * them (`table-copies.ts`). Persons, distinct ids, overrides, personless
 * distinct ids and groups are not copied: core tells their rows
 * (`personRowsChanged`), kept as versioned rows (`person-rows-schema.ts`).
 * `cohort_people` is: core adds static cohorts' people in its query code,
 * which tells nothing.
 */
export const COPIED_TABLES: ReadonlyMap<string, CopiedTable> = new Map<string, CopiedTable>([
  ['cohort_people', { orderBy: ['project_id', 'cohort_id', 'person_uuid'] }],
])

// A table named after FROM, JOIN, INTO, UPDATE or TABLE, quoted or not, in compiled SQL (user values are parameters there, never text).
const NAMED = /\b(?:from|join|into|update|table)\s+"?([a-z_][a-z0-9_]*)"?/gi

/** The copied tables a compiled statement names. */
export function copiedTablesIn(sql: string): ReadonlySet<string> {
  const found = new Set<string>()
  for (const match of sql.matchAll(NAMED)) {
    const name = match[1]!.toLowerCase()
    if (COPIED_TABLES.has(name)) found.add(name)
  }
  return found
}

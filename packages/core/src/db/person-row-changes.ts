/**
 * The person-side rows one committed write changed (`StorageDriver.personRowsChanged`):
 * each as the write left it, with the version that orders it among the rows
 * of its key. A key's state is its row with the greatest `(version, deleted)`
 * over all writes, whatever order they are told in: a row supersedes those of
 * lower versions, and a deletion supersedes the live row of its own version.
 */
export interface PersonRowChanges {
  readonly projectId: number
  /** Persons inserted or updated (`deleted` false, the version written), or deleted by a merge (`deleted` true, their last version). */
  readonly persons: ReadonlyArray<ChangedPerson>
  /** Distinct ids mapped to a person, new or moved by a merge, with the mapping's version. Never deleted. */
  readonly distinctIds: ReadonlyArray<ChangedDistinctId>
  /**
   * Overrides written (a merge moved the distinct id, or a personless one got a
   * person) or deleted by a squash. Their version is their distinct id's
   * mapping version when the override was written: every move of a distinct
   * id bumps that version and writes its override.
   */
  readonly overrides: ReadonlyArray<ChangedOverride>
  /** Distinct ids recorded as personless (version 0), or deleted when they got a person (version 0, `deleted`). */
  readonly personless: ReadonlyArray<ChangedPersonless>
  /** Groups inserted or updated, with the version written. Never deleted. */
  readonly groups: ReadonlyArray<ChangedGroup>
}

interface Versioned {
  readonly version: number
  readonly deleted: boolean
}

/** A row of `persons`; `properties` is the JSON text, `created_at` ISO 8601 UTC. */
export interface ChangedPerson extends Versioned {
  readonly id: number
  readonly uuid: string
  readonly properties: string
  readonly is_identified: boolean
  readonly created_at: string
}

/** A row of `person_distinct_ids`. */
export interface ChangedDistinctId extends Versioned {
  readonly distinct_id: string
  readonly person_uuid: string
}

/** A row of `person_distinct_id_overrides`. */
export interface ChangedOverride extends Versioned {
  readonly distinct_id: string
  readonly person_id: string
}

/** A row of `personless_distinct_ids`. */
export interface ChangedPersonless extends Versioned {
  readonly distinct_id: string
}

/** A row of `groups`; `properties` is the JSON text, `created_at` ISO 8601 UTC. */
export interface ChangedGroup extends Versioned {
  readonly group_type_index: number
  readonly group_key: string
  readonly properties: string
  readonly created_at: string
}

/** True when `changes` holds no row: nothing to tell. */
export function noPersonRows(changes: PersonRowChanges): boolean {
  return changes.persons.length + changes.distinctIds.length + changes.overrides.length + changes.personless.length + changes.groups.length === 0
}

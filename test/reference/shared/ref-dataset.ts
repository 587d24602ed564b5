/**
 * The data every reference evaluator (funnels, trends, ...) reads: events as
 * stored, persons by distinct id, groups, the project's settings and the
 * clock. Plain data, so the same dataset can be loaded into every storage
 * adapter and evaluated in memory.
 */
export interface RefEvent {
  readonly uuid: string
  readonly event: string
  readonly distinct_id: string
  /** ISO 8601, UTC (`Z`), up to microseconds. */
  readonly timestamp: string
  readonly properties: Readonly<Record<string, unknown>>
  /** Group keys by group type index, as `$groups` set them. */
  readonly groups?: Readonly<Partial<Record<0 | 1 | 2 | 3 | 4, string>>>
  /** PostHog's autocapture elements chain; '' when missing. */
  readonly elements_chain?: string
}

export interface RefPerson {
  /** The person's id (the same for each of its distinct ids). */
  readonly id: string
  readonly properties: Readonly<Record<string, unknown>>
}

export interface RefProject {
  readonly timezone: string
  /** 0 = Sunday, 1 = Monday. */
  readonly weekStartDay: 0 | 1
  readonly testAccountFilters: ReadonlyArray<unknown>
  /** The project's path cleaning rules (`{alias, regex}`), in order; none when absent. */
  readonly pathCleaningFilters?: ReadonlyArray<{ readonly alias: string; readonly regex: string }>
}

export interface RefDataset {
  readonly events: ReadonlyArray<RefEvent>
  /** distinct_id -> person. A distinct id not listed is its own personless person with empty properties. */
  readonly persons: Readonly<Record<string, RefPerson>>
  /** group type index -> group key -> properties. */
  readonly groups?: Readonly<Record<number, Readonly<Record<string, Readonly<Record<string, unknown>>>>>>
  readonly project: RefProject
  readonly now: Date
  /** Whether an event matches action `actionId`; datasets that use actions pass it. */
  readonly actionMatches?: (actionId: number, event: RefEvent) => boolean
  /** Cohort id -> ids of the persons in it. */
  readonly cohortMembers?: Readonly<Record<number, ReadonlySet<string>>>
}

import type { Expression } from 'kysely'
import type { SqlHooks } from '../../storage.js'

/**
 * The columns an expression may read, as the analysis that compiles it names
 * them: a field whose member is absent is refused (a ValidationError), so an
 * expression reaches nothing the query does not already read.
 */
export interface HogqlScope {
  readonly hooks: SqlHooks
  /** The events' `properties` JSON: `properties.x`, `properties['x']`. */
  readonly event: Expression<unknown>
  /** Reads event property `key` (`PropertyFilterSources.eventProperty`); default `hooks.jsonText(event, key)`. */
  readonly eventProperty?: (key: string) => Expression<string | null>
  /**
   * The numeric reading of event property `key`: by contract the same as
   * `hooks.textToDouble` of `eventProperty(key)`, but a numeric column where
   * the scope has one (`PropertyFilterSources.eventNumber`). Default that reading.
   */
  readonly eventNumber?: (key: string) => Expression<number | null>
  /** `event`. */
  readonly eventName: Expression<string>
  /** `timestamp`, a `timestamptz`. */
  readonly timestamp: Expression<unknown>
  /** `distinct_id`. */
  readonly distinctId: Expression<string>
  /** `person_id` and `person.id`. */
  readonly personId?: Expression<string>
  /** The person's properties JSON: `person.properties.x`. */
  readonly person?: Expression<unknown>
  /** `elements_chain`. */
  readonly elementsChain?: Expression<string>
  /** `$session_id` (the events' column; `properties.$session_id` reads the property). */
  readonly sessionId?: Expression<string | null>
  /** Group properties JSON by group type index: `group_0.properties.x`. */
  readonly groups?: Readonly<Record<number, Expression<unknown>>>
  /** Group keys by group type index: `$group_0`. */
  readonly groupKeys?: Readonly<Record<number, Expression<string>>>
  /** The project's IANA time zone: timestamps are shown and truncated (`toStartOfDay`) in it. */
  readonly timezone: string
  /** The engine's clock for `now()` and `today()`, which are refused without it (never the database's clock). */
  readonly now?: Date
}

/** What a compiled expression's SQL holds: text, a double, a boolean or a `timestamptz`; `unknown` is a property's text. */
export type HogqlType = 'string' | 'number' | 'boolean' | 'timestamp' | 'unknown'

/** A compiled expression: `sql` is text for `string`/`unknown`, double precision for `number`, boolean, or `timestamptz`. */
export interface CompiledHogql {
  readonly sql: Expression<unknown>
  readonly type: HogqlType
}

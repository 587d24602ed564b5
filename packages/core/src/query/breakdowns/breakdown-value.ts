import { sql, type Expression } from 'kysely'
import { ValidationError } from '../../errors.js'
import type { QuerySources } from '../scope/query-sources.js'
import type { BreakdownSpec } from './breakdown-spec.js'
import { eventPropertyText } from '../filters/compile-property-filters.js'

/** Compiles a HogQL breakdown expression to its text (supplied by the HogQL compiler). */
export type HogqlTextOf = (expression: string, path: ReadonlyArray<string | number>) => Expression<string | null>

/**
 * The raw text of one breakdown dimension for a scoped event: the property
 * as text (numbers and booleans in JSON spelling), null when missing or JSON
 * null; with `normalizeUrl`, PostHog's URL normalisation (below). Each
 * analysis maps null and '' to its own display (trends: PostHog's null
 * marker; funnels: ''). Cohort dimensions are not values of an event: the
 * analyses expand them. Session properties other than `$session_id` are
 * refused with a ValidationError until sessions are modelled.
 */
export function breakdownValueSql(spec: BreakdownSpec, sources: QuerySources, hogql: HogqlTextOf | undefined, path: ReadonlyArray<string | number>): Expression<string | null> {
  const { hooks } = sources
  let text: Expression<string | null>
  switch (spec.type) {
    case 'event':
      text = eventPropertyText(sources, spec.property)
      break
    case 'person':
      text = hooks.jsonText(sources.person ?? refuse(path, 'person breakdowns need person properties in this query'), spec.property)
      break
    case 'group': {
      const props = sources.groups?.[spec.groupTypeIndex!] ?? refuse(path, `group type ${spec.groupTypeIndex} properties are not available in this query`)
      text = hooks.jsonText(props, spec.property)
      break
    }
    case 'session':
      if (spec.property !== '$session_id') refuse(path, `session breakdown on ${JSON.stringify(spec.property)} is not supported; use $session_id`)
      text = sources.sessionId
      break
    case 'hogql':
      text = (hogql ?? refuse(path, 'HogQL breakdowns are not available'))(spec.property, path)
      break
    case 'cohort':
      return refuse(path, 'cohort breakdowns are expanded by the analysis, not read from an event')
  }
  return spec.normalizeUrl ? normalizeUrl(text) : text
}

/**
 * PostHog's `breakdown_normalize_url`: every trailing `/`, `?` and `#`
 * removed (`trim(TRAILING '/?#' ...)`), a value left empty shown as `/`; a
 * missing value stays missing.
 */
function normalizeUrl(text: Expression<string | null>): Expression<string | null> {
  return sql<string | null>`(case when ${text} is null then null when rtrim(${text}, '/?#') = '' then '/' else rtrim(${text}, '/?#') end)`
}

const refuse = (path: ReadonlyArray<string | number>, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid breakdown' })
}

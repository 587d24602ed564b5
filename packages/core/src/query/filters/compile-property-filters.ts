import { sql, type Expression, type SqlBool } from 'kysely'
import { ValidationError } from '../../errors.js'
import type { SqlHooks } from '../../storage.js'
import { formatTimestamp } from '../../time/timestamp.js'
import type { WeekStartDay } from '../dates/interval.js'
import { relativeDateParse } from '../dates/relative-date-parse.js'
import { instantOf, zonedFromInstant } from '../dates/wall-clock.js'
import { filterNumber, isFilterTimestamp, regexProblem, valueList, valueText } from './filter-values.js'
import type { PropertyCondition, PropertyFilters, PropertyGroup } from './property-filters.js'
import { elementKeyPattern, parseSelector, selectorPattern, tagNamePattern, type ElementKeyOperator } from './element-filters.js'

/** Where the properties of each filter type are, and how the database spells things. */
export interface PropertyFilterSources {
  /** The events' `properties` JSON column. */
  readonly event: Expression<unknown>
  /**
   * The text of event property `key`, as `hooks.jsonText(event, key)` spells
   * it. Default: that JSON read. The event scope reads the property's
   * materialized column instead where `events` has one.
   */
  readonly eventProperty?: (key: string) => Expression<string | null>
  /**
   * The numeric reading of event property `key`: exactly
   * `hooks.textToDouble` of its text. Default: that reading of
   * `eventProperty`. The event scope reads a double column instead where
   * one holds it (a numeric hot property or a promoted one).
   */
  readonly eventNumber?: (key: string) => Expression<number | null>
  /** The person's properties; `person` filters are refused without it. */
  readonly person?: Expression<unknown>
  /** Each group type index's properties; `group` filters for other indexes are refused. */
  readonly groups?: Readonly<Record<number, Expression<unknown>>>
  /** The events' `elements_chain` text column; `element` filters are refused without it. */
  readonly elementsChain?: Expression<string>
  /**
   * "The row's person is in cohort `cohortId`" (see `query/cohorts`); `cohort`
   * filters are refused without it. `path` is the filter's, from `properties`,
   * for a `ValidationError` about this filter (an unknown cohort, say).
   */
  readonly cohort?: (cohortId: number, path: ReadonlyArray<string | number>) => Expression<SqlBool>
  /**
   * The HogQL `expression` (a `hogql` filter's key) as a condition; `hogql`
   * filters are refused without it. `path` is the filter's, from `properties`.
   */
  readonly hogql?: (expression: string, path: ReadonlyArray<string | number>) => Expression<SqlBool>
  /**
   * A `session` filter (`$session_duration`) as a condition (see
   * `query/sessions`); `session` filters are refused without it. `path` is
   * the filter's, from `properties`.
   */
  readonly session?: (condition: PropertyCondition, path: ReadonlyArray<string | number>) => Expression<SqlBool>
  /**
   * The project's zone, week start and clock: with them `is_date_*` values
   * may be relative (`-7d`, `mStart`) and naive dates are wall-clock times in
   * the zone, as PostHog reads them. Without them values are absolute UTC.
   */
  readonly dates?: { readonly timeZone: string; readonly now: Date; readonly weekStartDay: WeekStartDay }
  readonly hooks: SqlHooks
}

/** Deeper groups are refused: nothing real nests this far, and databases limit expression depth. */
export const MAX_FILTER_DEPTH = 64

type Bool = Expression<SqlBool>
type Path = ReadonlyArray<string | number>

const TRUE: Bool = sql<SqlBool>`true`
const ASCII_UPPER = sql.lit('ABCDEFGHIJKLMNOPQRSTUVWXYZ')
const ASCII_LOWER = sql.lit('abcdefghijklmnopqrstuvwxyz')
const foldCase = (e: Expression<string | null>) => sql<string>`translate(${e}, ${ASCII_UPPER}, ${ASCII_LOWER})`
const foldText = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

/** `coalesce(e, fallback)`: every condition is true or false, never null, so NOT and OR compose as PostHog's. */
const orElse = (e: Expression<SqlBool | null>, fallback: boolean): Bool => sql<SqlBool>`coalesce(${e}, ${sql.lit(fallback)})`
const all = (parts: ReadonlyArray<Bool>): Bool =>
  parts.length === 0 ? TRUE : parts.length === 1 ? parts[0]! : sql<SqlBool>`(${sql.join(parts, sql` and `)})`
const any = (parts: ReadonlyArray<Bool>): Bool =>
  parts.length === 0 ? TRUE : parts.length === 1 ? parts[0]! : sql<SqlBool>`(${sql.join(parts, sql` or `)})`

const fail = (path: Path, message: string): never => {
  throw new ValidationError([{ path: ['properties', ...path], message }], { context: 'invalid property filters' })
}

/** Event property `key` of a row, as `sources` reads it (a materialized column or the JSON). */
export function eventPropertyText(sources: PropertyFilterSources, key: string): Expression<string | null> {
  return sources.eventProperty ? sources.eventProperty(key) : sources.hooks.jsonText(sources.event, key)
}

/** The numeric reading of event property `key` (`textToDouble` of its text), as `sources` reads it. */
export function eventPropertyNumber(sources: PropertyFilterSources, key: string): Expression<number | null> {
  return sources.eventNumber ? sources.eventNumber(key) : sources.hooks.textToDouble(eventPropertyText(sources, key))
}

/**
 * Compiles decoded property filters to one SQL condition, with PostHog's
 * semantics (packages/core/README.md, "Property filters"). Every value is a
 * bound parameter. Throws `ValidationError` for what would not match as
 * PostHog matches: unknown filter types here, bad numbers, dates or regexes.
 */
export function compilePropertyFilters(filters: PropertyFilters, sources: PropertyFilterSources): Bool {
  return isGroup(filters) ? group(filters, sources, [], 0) : all(filters.map((f, i) => condition(f, sources, [i])))
}

const isGroup = (f: PropertyFilters): f is PropertyGroup => !Array.isArray(f)

function group(g: PropertyGroup, sources: PropertyFilterSources, path: Path, depth: number): Bool {
  if (depth >= MAX_FILTER_DEPTH) fail(path, `property groups nest deeper than ${MAX_FILTER_DEPTH} levels`)
  const parts = g.values.map((v, i) =>
    'values' in v ? group(v, sources, [...path, 'values', i], depth + 1) : condition(v, sources, [...path, 'values', i]),
  )
  return g.type === 'AND' ? all(parts) : any(parts)
}

function properties(f: PropertyCondition, sources: PropertyFilterSources, path: Path): Expression<unknown> {
  const type = f.type ?? 'event'
  switch (type) {
    case 'event':
      return sources.event
    case 'person':
      return sources.person ?? fail([...path, 'type'], 'person properties cannot be filtered in this query')
    case 'group': {
      const index = f.group_type_index
      const column = index === undefined || index === null ? undefined : sources.groups?.[index]
      return column ?? fail([...path, 'group_type_index'], `properties of group type ${String(index)} cannot be filtered in this query`)
    }
    default:
      return fail([...path, 'type'], `filter type "${type}" is not available in this version`)
  }
}

function condition(f: PropertyCondition, sources: PropertyFilterSources, path: Path): Bool {
  if (f.type === 'element') return elementCondition(f, sources, path)
  if (f.type === 'cohort' && sources.cohort) return cohortCondition(f, sources.cohort, path)
  if (f.type === 'hogql' && sources.hogql) return sources.hogql(f.key, ['properties', ...path])
  if (f.type === 'session' && sources.session) return sources.session(f, ['properties', ...path])
  const { hooks } = sources
  const operator = f.operator ?? 'exact'
  const ofEvent = (f.type ?? 'event') === 'event'
  const text = ofEvent ? eventPropertyText(sources, f.key) : hooks.jsonText(properties(f, sources, path), f.key)
  // Numeric operators read the event's double column where one holds the property (the same value).
  const number = () => (ofEvent ? eventPropertyNumber(sources, f.key) : hooks.textToDouble(text))
  if (operator === 'is_set') return sql<SqlBool>`(${text} is not null)`
  if (operator === 'is_not_set') return sql<SqlBool>`(${text} is null)`

  const values = valueList(f.value)
  const valuePath = [...path, 'value']
  if (f.value === undefined || f.value === null) fail(valuePath, `operator ${operator} needs a value`)
  if (operator === 'between' || operator === 'not_between') {
    const bounds = values.map((v) => filterNumber(v))
    const [low, high] = bounds
    if (bounds.length !== 2 || low === undefined || high === undefined) fail(valuePath, `${operator} needs two numbers [min, max]`)
    if (low! > high!) fail(valuePath, `${operator} needs min <= max`)
    const n = number()
    return operator === 'between'
      ? orElse(sql`(${n} >= ${double(low!)} and ${n} <= ${double(high!)})`, false)
      : orElse(sql`(${n} < ${double(low!)} or ${n} > ${double(high!)})`, false)
  }
  // PostHog: an empty list matches everything, for every operator but between.
  if (values.length === 0) return TRUE

  switch (operator) {
    case 'exact':
    case 'in':
      return orElse(equalsAny(text, values, hooks), false)
    case 'is_not':
    case 'not_in':
      return orElse(sql`not ${equalsAny(text, values, hooks)}`, true)
    case 'icontains':
      return any(values.map((v) => orElse(sql`(strpos(${foldCase(text)}, ${foldText(valueText(v))}) > 0)`, false)))
    case 'not_icontains':
      return all(values.map((v) => orElse(sql`(strpos(${foldCase(text)}, ${foldText(valueText(v))}) = 0)`, true)))
    case 'regex':
    case 'not_regex': {
      const patterns = values.map((v, i) => {
        const pattern = valueText(v)
        const problem = regexProblem(pattern)
        return problem ? fail(Array.isArray(f.value) ? [...valuePath, i] : valuePath, problem) : pattern
      })
      return operator === 'regex'
        ? any(patterns.map((p) => orElse(hooks.regexMatch(text, p), false)))
        : all(patterns.map((p) => orElse(sql`not ${hooks.regexMatch(text, p)}`, true)))
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
    case 'min':
    case 'max': {
      const op = sql.raw({ gt: '>', gte: '>=', min: '>=', lt: '<', lte: '<=', max: '<=' }[operator])
      const n = number()
      return any(
        values.map((v, i) => {
          const number = filterNumber(v)
          if (number === undefined) fail(Array.isArray(f.value) ? [...valuePath, i] : valuePath, `${operator} needs a number, got ${JSON.stringify(v)}`)
          return orElse(sql`(${n} ${op} ${double(number!)})`, false)
        }),
      )
    }
    case 'is_date_exact':
    case 'is_date_before':
    case 'is_date_after': {
      const op = sql.raw({ is_date_exact: '=', is_date_before: '<', is_date_after: '>' }[operator])
      const at = hooks.textToTimestamp(text)
      return any(
        values.map((v, i) => {
          const at_ = Array.isArray(f.value) ? [...valuePath, i] : valuePath
          const utc = sources.dates ? zonedDateText(v, sources.dates) : isFilterTimestamp(v) ? v : undefined
          if (utc === undefined) {
            const forms = sources.dates ? 'an ISO 8601 date such as 2024-01-31, or a relative date such as -7d or mStart' : 'an ISO 8601 date such as 2024-01-31 or 2024-01-31T12:00:00Z'
            fail(at_, `${operator} needs ${forms}, got ${JSON.stringify(v)}`)
          }
          return orElse(sql`(${at} ${op} ${hooks.textToTimestamp(sql<string>`cast(${utc} as text)`)})`, false)
        }),
      )
    }
  }
}

const COHORT_OPERATORS: ReadonlySet<string> = new Set(['in', 'not_in', 'exact'])

/**
 * PostHog's `cohort` filter: the value is the cohort's id (a number or its
 * digits); `not_in` negates, `in` (and `exact`, PostHog's default) does not.
 */
function cohortCondition(f: PropertyCondition, cohort: NonNullable<PropertyFilterSources['cohort']>, path: Path): Bool {
  const operator = f.operator ?? 'in'
  if (!COHORT_OPERATORS.has(operator)) fail([...path, 'operator'], `cohort filters take the operator in or not_in, not ${operator}`)
  const v = f.value
  const id = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : Number.NaN
  if (!Number.isSafeInteger(id) || id < 1) fail([...path, 'value'], `a cohort filter's value is a cohort id, got ${JSON.stringify(v)}`)
  const member = cohort(id, ['properties', ...path])
  return operator === 'not_in' ? sql<SqlBool>`(not ${member})` : member
}

/**
 * PostHog's `relative_date_parse` of an `is_date_*` value in the project's
 * zone, as the UTC text `textToTimestamp` reads; undefined when it is no date.
 */
function zonedDateText(value: string | number | boolean, dates: NonNullable<PropertyFilterSources['dates']>): string | undefined {
  if (typeof value !== 'string' || value.length > 64) return undefined
  const now = zonedFromInstant(dates.timeZone, dates.now.getTime())
  const parsed = relativeDateParse(value.trim(), { timeZone: dates.timeZone, now, weekStartDay: dates.weekStartDay, alwaysTruncate: false })
  if (!parsed) return undefined
  const text = formatTimestamp(instantOf(dates.timeZone, parsed.time))
  return isFilterTimestamp(text) ? text : undefined
}

const double = (n: number) => sql<number>`cast(${n} as double precision)`

function equalsAny(text: Expression<string | null>, values: ReadonlyArray<string | number | boolean>, hooks: SqlHooks): Expression<SqlBool | null> {
  const texts = [...new Set(values.map(valueText))]
  return texts.length === 1 ? sql<SqlBool>`(${text} = cast(${texts[0]} as text))` : hooks.textInList(text, texts)
}

const ELEMENT_KEY_OPERATORS: ReadonlySet<string> = new Set<ElementKeyOperator>(['exact', 'is_not', 'icontains', 'not_icontains', 'regex', 'not_regex', 'is_set', 'is_not_set'])
const NEGATED: ReadonlySet<string> = new Set(['is_not', 'not_icontains', 'not_regex', 'is_not_set'])

/**
 * PostHog's `element` filters (posthog/hogql/property.py): `selector` and
 * `tag_name` with exact or is_not; `text` and `href` with the operators of
 * `element_chain_key_filter`. A list means any of its values (all of them
 * for negated operators).
 */
function elementCondition(f: PropertyCondition, sources: PropertyFilterSources, path: Path): Bool {
  const { hooks } = sources
  const chain = sources.elementsChain ?? fail([...path, 'type'], 'element filters cannot be used in this query')
  const operator = f.operator ?? 'exact'
  const key = f.key
  const keyPath = [...path, 'key']
  const valuePath = [...path, 'value']
  const match = (pattern: string, folded: boolean): Bool => {
    const m = hooks.regexMatch(folded ? foldCase(chain) : chain, pattern)
    return NEGATED.has(operator) ? orElse(sql`not ${m}`, true) : orElse(m, false)
  }
  if (key === 'text' || key === 'href') {
    if (!ELEMENT_KEY_OPERATORS.has(operator)) fail([...path, 'operator'], `element filter "${key}" does not support operator ${operator}`)
    if (operator === 'is_set' || operator === 'is_not_set') return match(elementKeyPattern(key, '', operator), false)
  } else if (key === 'selector' || key === 'tag_name') {
    if (operator !== 'exact' && operator !== 'is_not') fail([...path, 'operator'], `element filter "${key}" supports only exact and is_not, not ${operator}`)
  } else {
    fail(keyPath, `element filter key "${key}" is not supported (tag_name, text, href, selector)`)
  }
  if (f.value === undefined || f.value === null) fail(valuePath, `element filter "${key}" needs a value`)
  const values = valueList(f.value)
  if (values.length === 0) return TRUE
  const parts = values.map((v, i): Bool => {
    const at = Array.isArray(f.value) ? [...valuePath, i] : valuePath
    const text = valueText(v)
    if (key === 'tag_name') return match(tagNamePattern(text), false)
    if (key === 'selector') {
      const parsed = parseSelector(text)
      return typeof parsed === 'string' ? fail(at, `element filter "selector": ${parsed}`) : match(selectorPattern(parsed), false)
    }
    const pattern = elementKeyPattern(key as 'text' | 'href', text, operator as ElementKeyOperator)
    if (operator === 'regex' || operator === 'not_regex') {
      const problem = regexProblem(pattern)
      if (problem) fail(at, `element filter "${key}": ${problem}`)
    }
    return match(pattern, operator === 'icontains' || operator === 'not_icontains')
  })
  return NEGATED.has(operator) ? all(parts) : any(parts)
}

import { ValidationError } from '../../errors.js'
import { isTimeZone } from '../../model/timezone.js'
import type { EpochMicros } from '../../time/timestamp.js'
import { bucketOfMs } from './buckets.js'
import { DAY, floorTo, HOUR, MINUTE } from './civil.js'
import { INTERVALS, isInterval, type Interval, type WeekStartDay } from './interval.js'
import { dateProblem, relativeDateParse } from './relative-date-parse.js'
import { hasHours } from './relative-date.js'
import { instantOf, zonedFromInstant, type ZonedTime } from './wall-clock.js'

/** PostHog's `DateRange` plus the query's interval, as a client sends them. */
export interface DateRangeInput {
  /** Absolute, relative (`-7d`, `mStart`, ...) or `all`. Missing or blank: `-7d`. */
  readonly dateFrom?: string | null | undefined
  /** Absolute or relative. Missing or blank: now. */
  readonly dateTo?: string | null | undefined
  /** Use both bounds as given: no rounding to interval starts or ends, relative dates not truncated. */
  readonly explicitDate?: boolean | null | undefined
  /** Missing: `day`. */
  readonly interval?: Interval | null | undefined
}

export interface DateRangeContext {
  /** The project's IANA zone: dates without an offset are wall-clock times there, and days start at its midnight. */
  readonly timezone: string
  readonly weekStartDay: WeekStartDay
  readonly now: Date
  /**
   * The project's earliest event timestamp, or null when it has none; read
   * only for `date_from: "all"`. PostHog skips timestamps on or before
   * 2015-01-01T00:00:00Z as clock errors (`EARLIEST_TIMESTAMP`); so should this.
   */
  readonly earliestEvent?: () => Promise<Date | null>
}

/**
 * The instants a query covers: events with `from <= timestamp <= to`.
 * `fromMicros` and `toMicros` are the same bounds to the microsecond (an
 * extended `to` ends at ...:59.999999; `to` as a Date can only say .999),
 * for comparing stored microsecond timestamps.
 */
export interface ResolvedDateRange {
  readonly from: Date
  readonly to: Date
  readonly fromMicros: EpochMicros
  readonly toMicros: EpochMicros
  /**
   * PostHog's `date_from()`: the start before `from`'s rounding to its
   * interval (equal to `from` unless rounding moved it). The previous period
   * of a comparison and week labels are computed from it.
   */
  readonly dateFrom: Date
  readonly interval: Interval
}

// posthog/utils.py DEFAULT_DATE_FROM_DAYS.
const DEFAULT_DATE_FROM_DAYS = 7
// posthog/models/event DEFAULT_EARLIEST_TIME_DELTA = relativedelta(weeks=1), taken from UTC now.
const NO_EVENTS_LOOKBACK_MS = 7 * DAY

const FORMS = 'YYYY-MM-DD, an ISO 8601 date-time, or a relative date such as -7d, -24h, -2w, -1m, -1y, mStart, -1mEnd'

/**
 * PostHog's `QueryDateRange` (posthog/hogql_queries/utils/query_date_range.py)
 * as its trends and funnels runners use it, where `explicitDate` also turns
 * on `exact_timerange`:
 *
 * - date_from: missing = midnight today - 7 days; `all` = the earliest event
 *   (now - 1 week when there is none); otherwise `relative_date_parse`, with
 *   relative dates truncated to the day (to the hour for `-Nh`) except for
 *   minute intervals and explicit ranges.
 * - `from` is date_from rounded down to its interval (a week interval rounds
 *   only to the day) unless the range is explicit, or date_from is relative
 *   and the interval is hour or minute, or the interval is day and date_from
 *   is `-Nh`.
 * - date_to: missing = now; relative dates are not truncated. Unless explicit,
 *   day, week and month intervals move it to 23:59:59.999999 of its day, and
 *   hour and minute intervals move a missing or relative one to the end of
 *   its hour or minute. An absolute date_to with an hour interval is used as
 *   given (a bare date is that day's 00:00).
 *
 * Throws ValidationError naming `date_from`, `date_to` or `interval`.
 */
export async function resolveDateRange(input: DateRangeInput, context: DateRangeContext): Promise<ResolvedDateRange> {
  const interval = input.interval ?? 'day'
  if (!isInterval(interval)) throw invalid('interval', `unknown interval ${JSON.stringify(interval)}; use one of ${INTERVALS.join(', ')}`)
  const timeZone = context.timezone
  if (!isTimeZone(timeZone)) throw invalid('timezone', `unknown time zone ${JSON.stringify(timeZone)}`)
  const nowMs = context.now.getTime()
  if (Number.isNaN(nowMs)) throw invalid('now', 'not a valid date')
  const explicit = input.explicitDate === true
  const now = zonedFromInstant(timeZone, nowMs)
  const options = { timeZone, now, weekStartDay: context.weekStartDay }
  const fromText = blankToNull(input.dateFrom)
  const toText = blankToNull(input.dateTo)

  let dateFrom: EpochMicros
  let fromIsRelative = false
  let fromHasHours = false
  if (fromText === null) {
    dateFrom = instantOf(timeZone, { wall: floorTo(now.wall, DAY) - DEFAULT_DATE_FROM_DAYS * DAY, micros: 0, fold: 0 })
  } else if (fromText === 'all') {
    if (!context.earliestEvent) throw invalid('date_from', '"all" needs the project\'s earliest event, which is not available here')
    const earliest = await context.earliestEvent()
    dateFrom = (earliest ? earliest.getTime() : nowMs - NO_EVENTS_LOOKBACK_MS) * 1000
    // PostHog's parser maps "all" to an empty delta, which counts as relative.
    fromIsRelative = true
  } else {
    const parsed = relativeDateParse(fromText, { ...options, alwaysTruncate: !(interval === 'minute' || explicit) })
    if (!parsed) throw invalid('date_from', dateProblem(fromText, `${FORMS}, or "all"`))
    dateFrom = instantOf(timeZone, parsed.time)
    fromIsRelative = parsed.relative !== null
    fromHasHours = parsed.relative !== null && hasHours(parsed.relative)
  }

  let to: ZonedTime = now
  let toIsRelative = true
  if (toText !== null) {
    const parsed = relativeDateParse(toText, { ...options, alwaysTruncate: false })
    if (!parsed) throw invalid('date_to', dateProblem(toText, FORMS))
    to = parsed.time
    toIsRelative = parsed.relative !== null
  }
  if (!explicit) {
    if (interval === 'day' || interval === 'week' || interval === 'month') to = endOf(to, DAY)
    else if (toIsRelative) to = endOf(to, interval === 'hour' ? HOUR : MINUTE)
  }
  const toMicros = instantOf(timeZone, to)

  const roundFrom =
    !explicit &&
    (fromText === null || !fromIsRelative || (interval !== 'hour' && interval !== 'minute' && !(interval === 'day' && fromHasHours)))
  const fromMicros = roundFrom
    ? bucketOfMs(Math.floor(dateFrom / 1000), interval === 'week' ? 'day' : interval, timeZone, context.weekStartDay) * 1000
    : dateFrom

  return {
    from: new Date(Math.floor(fromMicros / 1000)),
    to: new Date(Math.floor(toMicros / 1000)),
    fromMicros,
    toMicros,
    dateFrom: new Date(Math.floor(dateFrom / 1000)),
    interval,
  }
}

/** The last microsecond of the wall-clock unit holding `time` (Python's `replace(minute=59, ...)`, which keeps `fold`). */
const endOf = (time: ZonedTime, unit: number): ZonedTime => ({ wall: floorTo(time.wall, unit) + unit - 1, micros: 999, fold: time.fold })

const blankToNull = (text: string | null | undefined): string | null => {
  const trimmed = text?.trim()
  return trimmed ? trimmed : null
}

const invalid = (field: string, message: string) => new ValidationError([{ path: [field], message }], { context: 'invalid date range' })

/** The bucket sizes of a time series, as PostHog names them (`IntervalType`, lower case). */
export type Interval = 'minute' | 'hour' | 'day' | 'week' | 'month'

export const INTERVALS: ReadonlyArray<Interval> = ['minute', 'hour', 'day', 'week', 'month']

/** The project's first day of the week: 0 = Sunday (PostHog's default), 1 = Monday. */
export type WeekStartDay = 0 | 1

export const isInterval = (value: unknown): value is Interval =>
  typeof value === 'string' && (INTERVALS as ReadonlyArray<string>).includes(value)

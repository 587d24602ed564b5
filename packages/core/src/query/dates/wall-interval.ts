import { civilMs, DAY, floorTo, HOUR, MINUTE } from './civil.js'
import type { Interval, WeekStartDay } from './interval.js'

/**
 * The start of the interval holding a wall time, on the wall clock (PostHog's
 * `QueryDateRange.align_with_interval`): weeks start at midnight of the
 * project's week start day, months at midnight of the 1st.
 */
export function truncateWall(wall: number, interval: Interval, weekStartDay: WeekStartDay): number {
  switch (interval) {
    case 'minute':
      return floorTo(wall, MINUTE)
    case 'hour':
      return floorTo(wall, HOUR)
    case 'day':
      return floorTo(wall, DAY)
    case 'week': {
      const day = floorTo(wall, DAY)
      return day - weekdayIndex(day, weekStartDay) * DAY
    }
    case 'month': {
      const d = new Date(wall)
      return civilMs(d.getUTCFullYear(), d.getUTCMonth(), 1)
    }
  }
}

/** The wall time one interval after an interval start. */
export function nextWall(start: number, interval: Interval): number {
  switch (interval) {
    case 'minute':
      return start + MINUTE
    case 'hour':
      return start + HOUR
    case 'day':
      return start + DAY
    case 'week':
      return start + 7 * DAY
    case 'month': {
      const d = new Date(start)
      return civilMs(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
    }
  }
}

/** Days since the start of the week (PostHog's `get_weekday_index`): 0 on the week start day. */
export function weekdayIndex(wall: number, weekStartDay: WeekStartDay): number {
  return (new Date(wall).getUTCDay() - weekStartDay + 7) % 7
}

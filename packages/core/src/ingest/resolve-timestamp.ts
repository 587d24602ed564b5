import type { EpochMicros } from '../time/timestamp.js'

const FUTURE_LIMIT_MICROS = 23 * 3600 * 1_000_000

export interface TimestampParts {
  readonly timestamp?: EpochMicros
  readonly sentAt?: EpochMicros
  /** Milliseconds before sending. */
  readonly offset?: number
  /** `properties.$ignore_sent_at` */
  readonly ignoreSentAt: boolean
}

export interface ResolvedTimestamp {
  readonly micros: EpochMicros
  /** Set when the event claimed a time more than 23 hours ahead and got `now` instead. */
  readonly inFuture: boolean
}

/**
 * PostHog's event time (rust/common/types/src/timestamp.rs): a client clock
 * that is off is corrected by `sent_at` (`now + (timestamp - sent_at)`),
 * `offset` wins over both (`now - offset`), no time at all means `now`, and a
 * time more than 23 hours in the future becomes `now`. Past times are kept.
 */
export function resolveEventTimestamp(parts: TimestampParts, now: EpochMicros): ResolvedTimestamp {
  let micros = now
  if (parts.timestamp !== undefined) {
    micros =
      parts.sentAt !== undefined && !parts.ignoreSentAt ? now + (parts.timestamp - parts.sentAt) : parts.timestamp
  }
  if (parts.offset !== undefined) micros = now - Math.round(parts.offset * 1000)
  if (micros - now > FUTURE_LIMIT_MICROS) return { micros: now, inFuture: true }
  return { micros, inFuture: false }
}

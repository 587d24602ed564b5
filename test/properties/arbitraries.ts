import fc from 'fast-check'
import type { CaptureInput } from '@sightline/core'

/** What JSON keeps of a value: `-0` becomes 0, undefined members go. */
export const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** Quotes, backslashes, SQL punctuation and non-ASCII text; none starts with `$`, so none is an identity event. */
export const EVENT_NAMES = ['pageview', 'sign up', "it's", '"quoted"', 'back\\slash', "x'; drop table events; --", 'café', 'Grüße', '日本語', '🎉 party']

/** Top-level property keys with an ingestion meaning, left out of generated properties. */
const RESERVED_KEYS = new Set(['$set', '$set_once', '$unset', '$groups', '$process_person_profile', '$anon_distinct_id', 'alias', '$session_id', '$ignore_sent_at'])

/**
 * Distinct ids of any text. Not all digits: the raw readers turn digit
 * strings into numbers (`'007'` would come back as 7). Not blank: capture
 * refuses whitespace-only ids.
 */
const anyDistinctId = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => !/^-?\d+$/.test(s) && /\S/.test(s))

/** Any text, plus names that mean something to JavaScript objects or to PostHog's person properties. */
const propertyKey = fc
  .oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', '', '$browser', 'utm_source', 'a.b', 'a"b'))
  .filter((k) => !RESERVED_KEYS.has(k))

/**
 * Any JSON value. Numbers are any finite double: DuckDB keeps the JSON text
 * as written, and jsonb stores the exact decimal and prints it in full
 * (1e21 comes back as 1000000000000000000000), which parses to the same
 * double, so no range restriction is needed (checked: 1e21, 0.1 + 0.2,
 * 5e-324, 1.7976931348623157e308).
 */
const jsonValue = fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 2 }).map(viaJson)

const anyProperties = fc.dictionary(propertyKey, jsonValue, { maxKeys: 5, noNullPrototype: true }).map(viaJson)

/** Earliest and latest generated event time: before the harness clock, so never "in the future". */
const FROM_MICROS = Date.UTC(2024, 0, 1) * 1000
const TO_MICROS = Date.UTC(2026, 1, 28) * 1000

interface Instant {
  readonly iso: string
  readonly micros: number
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** An ISO 8601 text with microseconds for `micros`, written in the zone `offsetMinutes` east of UTC. */
function isoText(micros: number, offsetMinutes: number): string {
  const local = micros + offsetMinutes * 60_000_000
  const seconds = Math.floor(local / 1_000_000)
  const wall = new Date(seconds * 1000).toISOString().slice(0, 19)
  const zone = offsetMinutes === 0 ? 'Z' : `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`
  return `${wall}.${pad(local - seconds * 1_000_000, 6)}${zone}`
}

const instant: fc.Arbitrary<Instant> = fc
  .tuple(fc.integer({ min: FROM_MICROS, max: TO_MICROS }), fc.constantFrom(0, 60, -300, 330, 765))
  .map(([micros, offset]) => ({ iso: isoText(micros, offset), micros }))

/** A client uuid (v4 or v7), sometimes in capitals: uuids compare without case. */
const clientUuid = fc.tuple(fc.uuid({ version: [4, 7] }), fc.boolean()).map(([u, upper]) => (upper ? u.toUpperCase() : u))

/** An event as sent, and what a raw read of `events` must give back for it. */
export interface SentEvent {
  readonly input: CaptureInput
  readonly expected: {
    /** Lower case; null when the client sent none. */
    readonly uuid: string | null
    readonly event: string
    readonly distinctId: string
    readonly micros: number
    readonly properties: Record<string, unknown>
  }
}

export interface SentEventOptions {
  readonly distinctId?: fc.Arbitrary<string>
  readonly properties?: fc.Arbitrary<Record<string, unknown>>
  /** Whether the client sends a uuid. Default `'sometimes'`. */
  readonly uuid?: 'always' | 'sometimes' | 'never'
}

export function sentEvent(options: SentEventOptions = {}): fc.Arbitrary<SentEvent> {
  const uuid = { always: clientUuid, sometimes: fc.option(clientUuid, { nil: undefined }), never: fc.constant(undefined) }[options.uuid ?? 'sometimes']
  return fc
    .record({ event: fc.constantFrom(...EVENT_NAMES), distinctId: options.distinctId ?? anyDistinctId, at: instant, properties: options.properties ?? anyProperties, uuid })
    .map(({ event, distinctId, at, properties, uuid }) => ({
      input: { event, distinctId, timestamp: at.iso, properties, ...(uuid === undefined ? {} : { uuid }) },
      expected: { uuid: uuid?.toLowerCase() ?? null, event, distinctId, micros: at.micros, properties },
    }))
}

/** A value placed somewhere in a send order, with a batch boundary after it or not. */
export interface Placed<T> {
  readonly value: T
  /** Sort key: sorting by it permutes the values (stable, so equal keys keep the generated order). */
  readonly order: number
  /** Ends a batch. */
  readonly cut: boolean
}

export const placed = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<Placed<T>> => fc.record({ value, order: fc.nat({ max: 20 }), cut: fc.boolean() })

/** The values in their send order, split into batches at the cuts. */
export function batches<T>(items: ReadonlyArray<Placed<T>>, options: { permute: boolean }): T[][] {
  const ordered = options.permute ? [...items].sort((a, b) => a.order - b.order) : items
  const out: T[][] = [[]]
  for (const item of ordered) {
    out.at(-1)!.push(item.value)
    if (item.cut) out.push([])
  }
  return out.filter((batch) => batch.length > 0)
}

/** An event in the shape `sentEvent` generates, at a fixed time: for the counterexamples kept as regression examples. */
export function fixedEvent(fields: { distinctId?: string; properties: Record<string, unknown>; uuid?: string }): SentEvent {
  const { distinctId = 'a', properties, uuid } = fields
  return {
    input: { event: 'pageview', distinctId, timestamp: isoText(FROM_MICROS, 0), properties, ...(uuid === undefined ? {} : { uuid }) },
    expected: { uuid: uuid?.toLowerCase() ?? null, event: 'pageview', distinctId, micros: FROM_MICROS, properties },
  }
}

import { isDeepStrictEqual } from 'node:util'

/**
 * The field lists of shared/spec/interface.md (2.1 to 2.4, 4.3, 4.4) as
 * checks: each field must be present with its documented type. Where
 * Sightline documents another choice (shared/reference/DECISIONS.md, the
 * http-adapter README's "Where Sightline chose"), the check says which row.
 */
export type Check = (value: unknown, at: string, out: string[]) => void

const show = (v: unknown) => (v === undefined ? 'undefined' : JSON.stringify(v)?.slice(0, 120))
const is = (name: string, ok: (v: unknown) => boolean): Check => (v, at, out) => {
  if (!ok(v)) out.push(`${at}: expected ${name}, got ${show(v)}`)
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const validZone = (v: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: v })
    return true
  } catch {
    return false
  }
}

export const str = is('string', (v) => typeof v === 'string')
export const int = is('integer', (v) => Number.isInteger(v))
export const num = is('number', (v) => typeof v === 'number' && Number.isFinite(v))
export const bool = is('boolean', (v) => typeof v === 'boolean')
export const obj = is('object', isObject)
export const arr = is('array', Array.isArray)
export const present = is('present', (v) => v !== undefined)
export const uuid = is('UUID', (v) => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v))
export const dateTime = is('ISO 8601 date-time', (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)))
export const date = is('YYYY-MM-DD', (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v))
export const email = is('e-mail', (v) => typeof v === 'string' && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v))
export const url = is('absolute URL', (v) => typeof v === 'string' && /^https?:\/\//.test(v) && URL.canParse(v))
export const timeZone = is('time-zone name', (v) => typeof v === 'string' && validZone(v))
export const oneOf = (...values: unknown[]): Check => is(`one of ${show(values)}`, (v) => values.includes(v))
export const exactly = (value: unknown): Check => is(show(value)!, (v) => isDeepStrictEqual(v, value))
export const orNull = (check: Check): Check => (v, at, out) => {
  if (v !== null) check(v, at, out)
}
export const both = (...checks: Check[]): Check => (v, at, out) => checks.forEach((c) => c(v, at, out))

/**
 * README "typed fields without a value yet": the field is null exactly when
 * the README says (PostHog too), and of the document's type otherwise.
 */
export const nullWhen = (isNull: boolean, check: Check): Check => (isNull ? exactly(null) : check)

export const arrayOf = (item: Check): Check => (v, at, out) => {
  if (!Array.isArray(v)) return void out.push(`${at}: expected array, got ${show(v)}`)
  v.forEach((x, i) => item(x, `${at}[${i}]`, out))
}
export const nonEmptyArrayOf = (item: Check): Check => both(is('non-empty array', (v) => Array.isArray(v) && v.length > 0), arrayOf(item))

/** An object holding every listed field (more are allowed: the document lists what must be there). */
export const fields = (spec: Record<string, Check>): Check & { readonly keys: string[] } =>
  Object.assign(
    (v: unknown, at: string, out: string[]) => {
      if (!isObject(v)) return void out.push(`${at}: expected object, got ${show(v)}`)
      for (const [key, check] of Object.entries(spec)) {
        if (!(key in v)) out.push(`${at}.${key}: missing`)
        else check(v[key], `${at}.${key}`, out)
      }
    },
    { keys: Object.keys(spec) },
  )

/** Every problem of a value against a check; [] when it conforms. */
export function problems(value: unknown, check: Check): string[] {
  const out: string[] = []
  check(value, '$', out)
  return out
}

/** 2.1: every list answers this envelope. */
export const envelope = (item: Check): Check => fields({ count: int, next: orNull(url), previous: orNull(url), results: arrayOf(item) })

/** 2.3: the embedded user object. */
export const USER = fields({ id: int, uuid, distinct_id: str, first_name: str, email, is_email_verified: bool })

/**
 * 2.2, with the README's "typed fields without a value yet": `url` null
 * exactly on a plugin not installed from a url, `latest_tag` exactly before
 * its first check for updates.
 */
export const plugin = (p: { readonly fromUrl: boolean; readonly checked: boolean }) => fields({
  id: int,
  plugin_type: oneOf('local', 'custom', 'repository', 'source'),
  name: str,
  description: str,
  url: nullWhen(!p.fromUrl, str),
  icon: str,
  config_schema: obj,
  tag: str,
  latest_tag: nullWhen(!p.checked, str),
  is_global: bool,
  organization_id: uuid,
  organization_name: str,
  capabilities: obj,
  metrics: obj,
  public_jobs: obj,
})

/**
 * 2.3. `is_cached`: boolean (README "Where Sightline chose": `is_cached`,
 * `result`). README "typed fields without a value yet": `result`,
 * `last_refresh` and `next_allowed_client_refresh` are computed on retrieve
 * (and `viewed/`, which answers the retrieved Insight), so typed there, and
 * null exactly on the answers that compute nothing: lists, create, PATCH and
 * `my_last_viewed`.
 */
export function insight(computed: 'retrieve' | 'uncomputed'): Check & { readonly keys: string[] } {
  const uncomputed = computed === 'uncomputed'
  return fields({
    id: int,
    short_id: str,
    name: str,
    derived_name: str,
    filters: obj,
    query: obj,
    order: int,
    deleted: bool,
    dashboards: arrayOf(int),
    dashboard_tiles: arrayOf(fields({ id: int, dashboard_id: int, deleted: bool })),
    last_refresh: nullWhen(uncomputed, dateTime),
    next_allowed_client_refresh: nullWhen(uncomputed, dateTime),
    result: nullWhen(uncomputed, arr),
    created_at: dateTime,
    created_by: USER,
    description: str,
    updated_at: dateTime,
    tags: arr,
    favorited: bool,
    saved: bool,
    last_modified_at: dateTime,
    last_modified_by: USER,
    is_sample: bool,
    effective_restriction_level: int,
    effective_privilege_level: int,
    timezone: timeZone,
    is_cached: bool,
  })
}

/** 2.4, with the README's row "`is_action` of an event definition": `false`; `action_id`, `last_calculated_at`, `created_by` null; `is_calculating` false. */
export const EVENT_DEFINITION = fields({
  id: uuid,
  name: str,
  created_at: dateTime,
  last_seen_at: dateTime,
  last_updated_at: dateTime,
  tags: arr,
  is_action: exactly(false),
  action_id: exactly(null),
  is_calculating: exactly(false),
  last_calculated_at: exactly(null),
  created_by: exactly(null),
  post_to_slack: bool,
})

/**
 * The Insight fields an analysis answers (4.2 "Insight-shaped object";
 * 4.3 and 4.4's response tables): `is_cached` boolean, `last_refresh` a
 * date-time, `timezone` a zone name, `result` the computed result.
 */
export const analysis = (result: Check): Check => fields({ is_cached: bool, last_refresh: dateTime, timezone: timeZone, result })

/**
 * 4.3's step object. DECISIONS: `order` an integer, `action_id` the event
 * name for event steps, the people URLs present (each answering a list).
 * README "typed fields without a value yet": the first step has no
 * conversion time and nobody dropped before it, so its
 * `average_conversion_time`, `median_conversion_time` and
 * `dropped_people_url` are null exactly there (PostHog too), typed on every
 * later step.
 */
export const step = (first: boolean): Check =>
  fields({
    count: int,
    action_id: str,
    average_conversion_time: nullWhen(first, num),
    median_conversion_time: nullWhen(first, num),
    converted_people_url: str,
    dropped_people_url: nullWhen(first, str),
    order: int,
  })

/** 4.4: a condition, a properties group. */
export const CONDITION = fields({ key: str, value: str, operator: str, type: str })
export const PROPERTY_GROUP = fields({ type: str, values: arrayOf(CONDITION) })

/** 4.4: the elements of a filter's `events` and `actions`. */
export const ENTITY_FIELDS = { id: str, properties: arr, math: str }
export const ENTITY = fields(ENTITY_FIELDS)

export const FILTER_FIELDS = { events: arrayOf(ENTITY), actions: arrayOf(ENTITY), properties: obj, filter_test_accounts: bool, date_from: str, date_to: str }
/** 4.4's filter object. */
export const FILTER = fields(FILTER_FIELDS)

/** 4.4's series object; `data` numbers (DECISIONS: "Trend `data`"). */
export const SERIES: Check = fields({ data: arrayOf(num), days: arrayOf(date), labels: arrayOf(str), label: str, filter: FILTER })

/** README "Where Sightline chose", activity: PostHog's envelope and entries. */
export const ACTIVITY = fields({
  results: nonEmptyArrayOf(
    fields({
      user: orNull(fields({ first_name: str, email: str })),
      activity: str,
      scope: str,
      item_id: str,
      detail: fields({ changes: arrayOf(fields({ type: str, action: str, field: present, before: present, after: present })), trigger: present, name: present, short_id: present }),
      created_at: dateTime,
    }),
  ),
  next: present,
  previous: present,
  total_count: int,
})
export const ACTIVITY_COLUMNS = ['user', 'activity', 'scope', 'item_id', 'detail', 'created_at']

/** README: cancel/ and timing/ answer these Insight fields (nothing computed) and their own. */
export const ACKNOWLEDGED = { result: exactly(null), last_refresh: exactly(null), timezone: timeZone, is_cached: exactly(false) }

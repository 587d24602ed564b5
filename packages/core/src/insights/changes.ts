import type { ActivityChange } from '../model/activity.js'

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * JSON text with object keys sorted, so equal values compare equal whatever
 * their key order (Postgres `jsonb` gives keys back in its own order).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v,
  )
}

export const jsonEqual = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b)

/** Django's empty values, which PostHog's `changes_between` treats as "no value". */
const isEmpty = (v: unknown) =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0)

/**
 * The field-level changes between two versions of a record, as PostHog's
 * `changes_between`: a field going from empty to a value is `created`, from a
 * value to empty `deleted`, from one value to another `changed`; empty to empty
 * (null to '' or {}) is no change.
 */
export function changesBetween<T extends object>(type: string, before: T, after: T, fields: ReadonlyArray<keyof T & string>): ActivityChange[] {
  const changes: ActivityChange[] = []
  for (const field of fields) {
    const left: unknown = before[field]
    const right: unknown = after[field]
    if (isEmpty(left) && isEmpty(right)) continue
    if (isEmpty(left)) changes.push({ type, action: 'created', field, before: null, after: right })
    else if (isEmpty(right)) changes.push({ type, action: 'deleted', field, before: left, after: null })
    else if (!jsonEqual(left, right)) changes.push({ type, action: 'changed', field, before: left, after: right })
  }
  return changes
}

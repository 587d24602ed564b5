/**
 * Whether core's `capture` will accept a timestamp string. Must accept exactly
 * what core's `parseTimestamp` (packages/core/src/time/timestamp.ts) accepts:
 * a test holds the two together. Core does not export its parser; if it did,
 * this file would go.
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/

export function isCoreTimestamp(text: string): boolean {
  const m = ISO.exec(text.trim())
  if (!m) return false
  const [, y, mo, d, h = '0', mi = '0', s = '0', , zone] = m
  const month = Number(mo)
  const day = Number(d)
  if (month < 1 || month > 12 || day < 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return false
  const check = new Date(Date.UTC(Number(y), month - 1, day))
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return false
  if (zone && zone !== 'Z' && zone !== 'z') {
    const digits = zone.slice(1).replace(':', '')
    if (Number(digits.slice(0, 2)) > 23 || (digits.length > 2 && Number(digits.slice(2, 4)) > 59)) return false
  }
  return true
}

/**
 * PostHog's `_get_sent_at`: digits (optionally with a fraction) are seconds,
 * or milliseconds when longer than 11 characters; anything else is ISO 8601.
 * Returns the ISO form core accepts, or undefined when it does not parse
 * (PostHog's leniency: the batch is then timed by the server clock alone).
 */
export function parseSentAt(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) value = String(value)
  if (typeof value !== 'string' || value === '') return undefined
  if (/^\d+(?:\.\d+)?$/.test(value)) {
    const ms = value.length > 11 ? Number(value) : Number(value) * 1000
    const date = new Date(ms)
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
  }
  return isCoreTimestamp(value) ? value : undefined
}

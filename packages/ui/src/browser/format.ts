/** Numbers as people read them: thousands separated, at most two decimals. */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '–'
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 })
}

/** A share of 1 as a percentage with one decimal (`0.5` -> `50.0%`). */
export function formatPercent(share: number): string {
  return `${(Number.isFinite(share) ? share * 100 : 0).toFixed(1)}%`
}

/** A duration in seconds as `45s`, `3m 20s`, `2h 5m` or `3d 4h`. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–'
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`
}

/** PostHog's marker of a missing breakdown value, shown in words. */
const NULL_BREAKDOWN = '$$_posthog_breakdown_null_$$'
const OTHER_BREAKDOWN = '$$_posthog_breakdown_other_$$'

/** A breakdown value as a label: `(none)` for PostHog's null marker, `Other` for the rest, parts joined by `::`. */
export function breakdownLabel(value: unknown): string {
  if (Array.isArray(value)) return value.map(breakdownLabel).join('::')
  if (value === NULL_BREAKDOWN || value === null || value === undefined || value === '') return '(none)'
  if (value === OTHER_BREAKDOWN) return 'Other'
  return String(value)
}

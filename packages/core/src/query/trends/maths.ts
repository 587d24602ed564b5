/**
 * The `math` values of a trend series (PostHog's BaseMathType, PropertyMathType,
 * CountPerActorMathType, GroupMathType, HogQLMathType) and what each needs.
 */
export const QUANTILES = { median: 0.5, p75: 0.75, p90: 0.9, p95: 0.95, p99: 0.99 } as const

export const PROPERTY_MATHS = ['sum', 'avg', 'min', 'max', 'median', 'p75', 'p90', 'p95', 'p99'] as const
export type PropertyMath = (typeof PROPERTY_MATHS)[number]

export const COUNT_PER_ACTOR_MATHS = PROPERTY_MATHS.filter((m) => m !== 'sum').map((m) => `${m}_count_per_actor` as const)
export type CountPerActorMath = `${Exclude<PropertyMath, 'sum'>}_count_per_actor`

export const MATHS = [
  'total',
  'dau',
  'weekly_active',
  'monthly_active',
  'unique_session',
  'unique_group',
  'first_time_for_user',
  ...PROPERTY_MATHS,
  ...COUNT_PER_ACTOR_MATHS,
  'hogql',
] as const
export type MathName = 'total' | 'dau' | 'weekly_active' | 'monthly_active' | 'unique_session' | 'unique_group' | 'first_time_for_user' | PropertyMath | CountPerActorMath | 'hogql'

export const isMath = (m: string): m is MathName => (MATHS as ReadonlyArray<string>).includes(m)
export const isPropertyMath = (m: MathName): m is PropertyMath => (PROPERTY_MATHS as ReadonlyArray<string>).includes(m)
export const isCountPerActorMath = (m: MathName): m is CountPerActorMath => m.endsWith('_count_per_actor')

/** Maths whose cumulative display counts each actor once, in its first bucket (PostHog: `dau` and `unique_group`). */
export const isFirstSeenCumulative = (m: MathName): boolean => m === 'dau' || m === 'unique_group'

/** The number of days an active-users math looks back (7 or 30), or null for other maths. */
export const activeWindowDays = (m: MathName): 7 | 30 | null => (m === 'weekly_active' ? 7 : m === 'monthly_active' ? 30 : null)

/** The maths stickiness keeps; PostHog rewrites every other one to `dau` (stickiness counts actors). */
export const STICKINESS_MATHS: ReadonlyArray<MathName> = ['dau', 'weekly_active', 'monthly_active', 'unique_group', 'hogql']

/** The aggregate a property or count-per-actor math applies to its values. */
export function aggregateOf(m: PropertyMath | CountPerActorMath): { readonly kind: 'sum' | 'avg' | 'min' | 'max' } | { readonly kind: 'quantile'; readonly q: number } {
  const base = (m.endsWith('_count_per_actor') ? m.slice(0, -'_count_per_actor'.length) : m) as PropertyMath
  if (base === 'sum' || base === 'avg' || base === 'min' || base === 'max') return { kind: base }
  return { kind: 'quantile', q: QUANTILES[base] }
}

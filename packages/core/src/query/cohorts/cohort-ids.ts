import type { PropertyCondition, PropertyFilters, PropertyGroup } from '../filters/property-filters.js'

/**
 * The ids of the cohorts that `cohort` filters name, anywhere in `filters`,
 * each once, in order of appearance. Values that are not ids are skipped (the
 * compiler refuses them with their path).
 */
export function cohortIdsIn(filters: PropertyFilters): number[] {
  const ids = new Set<number>()
  const visit = (f: PropertyGroup | PropertyCondition): void => {
    if ('values' in f) return f.values.forEach(visit)
    if (f.type !== 'cohort') return
    const v = f.value
    const id = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : Number.NaN
    if (Number.isSafeInteger(id) && id >= 1) ids.add(id)
  }
  if (Array.isArray(filters)) filters.forEach(visit)
  else visit(filters as PropertyGroup)
  return [...ids]
}

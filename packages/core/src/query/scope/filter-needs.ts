import type { PropertyCondition, PropertyFilters, PropertyGroup } from '../filters/property-filters.js'

/** What a set of property filters reads besides the event: which joins a query needs. */
export interface FilterNeeds {
  person: boolean
  readonly groups: Set<number>
}

export const noNeeds = (): FilterNeeds => ({ person: false, groups: new Set() })

/** Adds to `needs` what `filters` read: person properties, group properties by index. */
export function addFilterNeeds(needs: FilterNeeds, filters: PropertyFilters | undefined | null): FilterNeeds {
  if (!filters) return needs
  const visit = (f: PropertyGroup | PropertyCondition): void => {
    if ('values' in f && Array.isArray(f.values) && !('key' in f)) {
      for (const v of (f as PropertyGroup).values) visit(v)
      return
    }
    const c = f as PropertyCondition
    // A HogQL filter may read person properties; which ones is known only once compiled.
    if (c.type === 'person' || c.type === 'hogql') needs.person = true
    if (c.type === 'group' && typeof c.group_type_index === 'number') needs.groups.add(c.group_type_index)
  }
  if (Array.isArray(filters)) for (const f of filters) visit(f)
  else visit(filters as PropertyGroup)
  return needs
}

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== ''
const hasProperties = (v: unknown): boolean => (Array.isArray(v) ? v.length > 0 : isObject(v) && Array.isArray(v.values) && v.values.length > 0)

/** The dashboard's properties as one AND group (a list is wrapped; a group is kept). */
const asGroup = (p: unknown): Json => (Array.isArray(p) ? { type: 'AND', values: p } : (p as Json))

/**
 * An insight's legacy filters with a dashboard's overrides, as PostHog applies
 * them (`Insight.dashboard_filters` and `QueryRunner.apply_dashboard_filters`):
 * - a dashboard `date_from` or `date_to` replaces both of the insight's dates
 *   (an absent one becomes the default), and `date_from: "all"` turns
 *   `compare` off;
 * - dashboard `properties` are ANDed with the insight's own: a list becomes
 *   `{type: AND, values: [{type: AND, values: insight}, {type: AND, values: dashboard}]}`,
 *   a group `{type: AND, values: [insight, dashboard]}`, and with no insight
 *   properties the dashboard's are used as they are.
 * Other dashboard keys change nothing. Returns a new object; `filters` is not changed.
 */
export function applyDashboardFilters(filters: Json, dashboard: Json): Json {
  const out: Json = { ...filters }
  if (isSet(dashboard.date_from) || isSet(dashboard.date_to)) {
    delete out.date_from
    delete out.date_to
    if (isSet(dashboard.date_from)) out.date_from = dashboard.date_from
    if (isSet(dashboard.date_to)) out.date_to = dashboard.date_to
    if (dashboard.date_from === 'all' && out.compare === true) out.compare = false
  }
  if (hasProperties(dashboard.properties)) {
    const own = filters.properties
    if (Array.isArray(own) && own.length > 0) {
      out.properties = { type: 'AND', values: [{ type: 'AND', values: own }, asGroup(dashboard.properties)] }
    } else if (isObject(own) && hasProperties(own)) {
      out.properties = { type: 'AND', values: [own, asGroup(dashboard.properties)] }
    } else {
      out.properties = dashboard.properties
    }
  }
  return out
}

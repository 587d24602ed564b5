/**
 * posthog/helpers/multi_property_breakdown.py
 * `protect_old_clients_from_multi_property_default`, applied by the legacy
 * endpoint to every funnel result: when the request itself says
 * `insight: "FUNNELS"` and `breakdown_type` event or person, and the result is
 * a list of lists, a string `breakdown` request gets its step objects'
 * `breakdown` and `breakdown_value` unboxed to their first element, and a
 * `breakdowns` request gets the key `breakdown` renamed `breakdowns`.
 * (The stored copy of the helper reads the request where it means the step,
 * which would make the unboxing a no-op; its unit test asserts the unboxing,
 * which funnels.md §9.6 also describes: the reference follows the test.)
 */
export function unboxLegacyBreakdown(request: Record<string, unknown>, result: unknown): unknown {
  if (!Array.isArray(result) || result.length === 0 || !Array.isArray(result[0])) return result
  const breakdownRequest = request.insight === 'FUNNELS' && (request.breakdown_type === 'person' || request.breakdown_type === 'event')
  const single = breakdownRequest && typeof request.breakdown === 'string'
  const multi = breakdownRequest && Object.hasOwn(request, 'breakdowns')
  if (!single && !multi) return result
  return result.map((series: Array<Record<string, unknown>>) =>
    series.map((item) => {
      const out = { ...item }
      if (single) {
        if (Array.isArray(out.breakdown)) out.breakdown = out.breakdown[0]
        if (Array.isArray(out.breakdown_value)) out.breakdown_value = out.breakdown_value[0]
      }
      if (multi) {
        out.breakdowns = out.breakdown
        delete out.breakdown
      }
      return out
    }),
  )
}

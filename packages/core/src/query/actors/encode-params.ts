/**
 * PostHog's `encode_get_request_params` + `urlencode`, the query string of
 * every people URL an analysis returns: strings as they are, everything else
 * as JSON, `+` for spaces; keys without a value (undefined or null) and the
 * keys in `omit` (those the URL sets itself) are left out. Default: omit none.
 */
export function encodeParams(params: Readonly<Record<string, unknown>>, omit: ReadonlyArray<string> = []): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || omit.includes(key)) continue
    search.append(key, typeof value === 'string' ? value : JSON.stringify(value))
  }
  return search.toString()
}

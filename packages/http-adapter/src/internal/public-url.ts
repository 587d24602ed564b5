/**
 * The URL the client used, for absolute links (`next`, `previous`). Proxy
 * headers are read only when the host said to trust them: otherwise any
 * client could make the server print links to a host of its choosing.
 */
export function publicUrl(request: Request, trustProxy: boolean): URL {
  const url = new URL(request.url)
  if (!trustProxy) return url
  const proto = firstValue(request.headers.get('x-forwarded-proto'))
  const host = firstValue(request.headers.get('x-forwarded-host'))
  if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`
  if (host && /^[A-Za-z0-9.\-:[\]]+$/.test(host)) {
    try {
      const parsed = new URL(`${url.protocol}//${host}`)
      url.host = parsed.host
    } catch {
      // an unusable forwarded host keeps the request's own
    }
  }
  return url
}

/** A proxy chain appends; the first value is the one the client sent to the first proxy. */
const firstValue = (header: string | null) => header?.split(',')[0]?.trim().toLowerCase() || undefined

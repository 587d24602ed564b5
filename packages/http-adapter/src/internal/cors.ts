/**
 * PostHog's `cors_response` for capture: only when the request has an Origin,
 * echo it and allow credentials, so posthog-js can send from any site.
 */
export function corsHeaders(request: Request): Record<string, string> {
  const origin = request.headers.get('origin')
  if (!origin) return {}
  let allowed: string
  try {
    const url = new URL(origin)
    allowed = `${url.protocol}//${url.host}`
  } catch {
    return {}
  }
  return {
    'access-control-allow-origin': allowed,
    'access-control-allow-credentials': 'true',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    // PostHog allows X-Requested-With only; Content-Type and Content-Encoding let a browser send gzip JSON too.
    'access-control-allow-headers': 'X-Requested-With, Content-Type, Content-Encoding',
    vary: 'Origin',
  }
}

/** PostHog answers a capture preflight with `{"status": 1}`. */
export function preflight(request: Request): Response {
  return new Response(JSON.stringify({ status: 1 }), { status: 200, headers: { 'content-type': 'application/json', ...corsHeaders(request) } })
}

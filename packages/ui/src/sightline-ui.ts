import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { pageHtml } from './page-html.js'
import { PAGE_STYLES } from './page-styles.js'

/** Options of `sightlineUi`. */
export interface SightlineUiOptions {
  /** The page's title. Default `Sightline`. */
  readonly title?: string
  /** The folder holding `sightline-ui.js`, the browser bundle. Default the package's own `assets/` (built by `pnpm build`, or on `pnpm pack`). */
  readonly assetsDir?: string
}

/** What the http-adapter's `ui` option takes (`UiPages` there; repeated here so neither package imports the other). */
export interface SightlineUi {
  /** Answers `/` (the page) and `/ui/*` (its script and styles), or null for any other path. */
  serve(path: string, request: Request): Promise<Response | null>
}

/**
 * The page that draws insights, for the http-adapter's `ui` option:
 * `createHandler(sightline, { basePath: '/sightline', ui: sightlineUi() })`
 * serves it at `/sightline/`. It loads nothing from other hosts: its content
 * security policy allows the page's own origin only.
 */
export function sightlineUi(options: SightlineUiOptions = {}): SightlineUi {
  const html = asset(pageHtml(options.title ?? 'Sightline'), 'text/html; charset=utf-8')
  const css = asset(PAGE_STYLES, 'text/css; charset=utf-8')
  const scriptPath = options.assetsDir === undefined ? fileURLToPath(new URL('../assets/sightline-ui.js', import.meta.url)) : `${options.assetsDir}/sightline-ui.js`
  // Read once, on the first request that needs it; a failed read is retried by the next request.
  let script: Promise<Asset> | undefined
  const loadScript = () => (script ??= readFile(scriptPath, 'utf8').then((text) => asset(text, 'text/javascript; charset=utf-8')).catch((error: unknown) => {
    script = undefined
    throw error
  }))

  return Object.freeze({
    async serve(path: string, request: Request): Promise<Response | null> {
      if (path === '/' || path === '') {
        const url = new URL(request.url)
        // The page's links are relative: under /sightline they must resolve from /sightline/.
        if (!url.pathname.endsWith('/')) return new Response(null, { status: 308, headers: { location: `${url.pathname}/${url.search}` } })
        return respond(html, request, PAGE_HEADERS)
      }
      if (path === '/ui/sightline-ui.css') return respond(css, request)
      if (path === '/ui/sightline-ui.js') {
        try {
          return respond(await loadScript(), request)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
          return new Response(`The page's script is not built: run \`pnpm build\` (or node packages/ui/scripts/bundle.mjs) in the Sightline checkout. Missing: ${scriptPath}\n`, {
            status: 503,
            headers: { 'content-type': 'text/plain; charset=utf-8' },
          })
        }
      }
      return null
    },
  })
}

interface Asset {
  readonly body: string
  readonly type: string
  readonly etag: string
}

function asset(body: string, type: string): Asset {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }
}

/** Only the page's own origin: no script, style, font or data from anywhere else. */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'",
  'referrer-policy': 'no-referrer',
}

/** The asset, or 304 when the browser holds this version; `no-cache` so a new version is seen at once (the names carry no hash). */
function respond(a: Asset, request: Request, extra: Record<string, string> = {}): Response {
  const headers = { 'content-type': a.type, etag: a.etag, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', ...extra }
  if (request.headers.get('if-none-match') === a.etag) return new Response(null, { status: 304, headers })
  return new Response(a.body, { status: 200, headers })
}

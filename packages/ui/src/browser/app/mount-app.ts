import { el } from '../dom.js'
import { createApi, type Api } from './api-client.js'
import { dashboardPage } from './dashboard-page.js'
import { insightPage } from './insight-page.js'
import { projectHome, projectList } from './project-pages.js'
import { placeOf } from './route.js'
import { session } from './session.js'
import { signInForm } from './sign-in.js'

/** What every page gets: the API of the signed-in key, and a way to say the page is being left (to abort its requests). */
export interface PageContext {
  readonly api: Api
  readonly signal: AbortSignal
}

/**
 * The page served at the http-adapter's base path: sign in with a personal
 * API key, pick a project, open its insights and dashboards. Places live in
 * the URL's hash (`#/project/1/insight/2`), so the browser's back button,
 * bookmarks and reloads work without any server-side routing.
 */
export function mountApp(root: HTMLElement): void {
  const doc = root.ownerDocument
  const win = doc.defaultView ?? window
  const base = new URL('.', win.location.href).href
  let leave = new AbortController()

  const show = () => {
    leave.abort()
    leave = new AbortController()
    const key = session.key()
    const main = el(doc, 'div', { class: 'sightline-page' })
    if (key === null) {
      root.replaceChildren(header(doc, null), main)
      signInForm(main, base, (accepted) => {
        session.signIn(accepted)
        show()
      })
      return
    }
    root.replaceChildren(header(doc, () => {
      session.signOut()
      win.location.hash = '#/'
      show()
    }), main)
    const ctx: PageContext = { api: createApi(key, base), signal: leave.signal }
    const place = placeOf(win.location.hash)
    if (place.page === 'projects') void projectList(main, ctx)
    else if (place.page === 'project') void projectHome(main, ctx, place.projectId)
    else if (place.page === 'insight') void insightPage(main, ctx, place.projectId, place.insightId)
    else void dashboardPage(main, ctx, place.projectId, place.dashboardId)
    // Screen readers and keyboards start each page at its heading.
    main.querySelector('h2')?.focus()
  }
  win.addEventListener('hashchange', show)
  show()
}

function header(doc: Document, signOut: (() => void) | null): HTMLElement {
  return el(
    doc,
    'header',
    { class: 'sightline-bar' },
    el(doc, 'h1', {}, el(doc, 'a', { href: '#/', text: 'Sightline' })),
    signOut ? el(doc, 'button', { type: 'button', class: 'secondary', onclick: signOut, text: 'Sign out' }) : null,
  )
}

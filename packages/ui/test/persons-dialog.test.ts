// @vitest-environment happy-dom
import { afterEach, describe, expect, test, vi } from 'vitest'
import { ApiError, type Api } from '../src/browser/app/api-client.js'
import { nextPageOf, showPersons } from '../src/browser/app/persons-dialog.js'

afterEach(() => document.body.replaceChildren())

/**
 * An Api answering a people URL as the http-adapter does (listEnvelope): `total`
 * persons, `limit`/`offset` pages, `next` absolute on the host the server sees
 * (here another one than the page's, as behind a proxy) with every parameter kept.
 * Each GET waits until the test lets it go, so the test sees the dialog while it loads.
 */
function pagedApi(total: number, failAt: ReadonlySet<number> = new Set()) {
  const asked: string[] = []
  const waiting: Array<() => void> = []
  const api: Api = {
    get: <T>(path: string) => {
      asked.push(path)
      return new Promise<T>((resolve, reject) =>
        waiting.push(() => {
          const url = new URL(path, 'http://page.test/sightline/')
          const limit = Number(url.searchParams.get('limit') ?? 100)
          const offset = Number(url.searchParams.get('offset') ?? 0)
          if (failAt.has(asked.length)) return reject(new ApiError(504, 'The query took too long and was stopped.', undefined))
          const next = new URL(`http://10.0.0.7:8000/sightline${url.pathname.replace(/^\/sightline/, '')}${url.search}`)
          next.searchParams.set('offset', String(offset + limit))
          const results = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({ id: offset + i, distinct_ids: [`u${offset + i}`], properties: {}, created_at: '2026-01-08T09:00:00Z' }))
          resolve({ count: total, next: offset + limit < total ? next.href : null, previous: null, results } as T)
        }),
      )
    },
    post: async <T>() => null as T,
  }
  /** Answers the request waiting, then waits until the dialog has drawn it (its status no longer says it is loading). */
  const answer = async () => {
    waiting.shift()!()
    await vi.waitFor(() => expect(document.querySelector('.sightline-persons-dialog [role="status"]')?.textContent).not.toMatch(/oading/))
  }
  return { api, asked, answer }
}

const selection = { title: 'signup on 8-Jan-2026', url: '/api/projects/1/persons/trends/?entity_id=signup&date_from=2026-01-08' }

describe('the persons dialog pages through the list', () => {
  test('“Load more persons” follows `next` until there is none, saying how many are shown', async () => {
    const opener = document.body.appendChild(document.createElement('button'))
    opener.focus()
    const { api, asked, answer } = pagedApi(250)
    const dialog = showPersons(document, api, selection)
    const status = dialog.querySelector('[role="status"]')!
    const more = dialog.querySelector<HTMLButtonElement>('button.sightline-more')!
    const rows = () => dialog.querySelectorAll('tbody tr').length
    expect(status.textContent).toBe('Loading the persons…')
    expect(more.hidden).toBe(true)

    await answer()
    expect(rows()).toBe(100)
    expect(status.textContent).toBe('100 of 250 persons')
    // A labelled button in the tab order, described by the count.
    expect(more.hidden).toBe(false)
    expect(more.type).toBe('button')
    expect(more.textContent).toBe('Load more persons')
    expect(more.getAttribute('aria-describedby')).toBe(status.id)
    expect(more.tabIndex).toBe(0)

    more.focus()
    more.click()
    expect(status.textContent).toBe('100 persons shown; loading more…')
    expect(more.getAttribute('aria-disabled')).toBe('true')
    more.click() // a second press while loading asks nothing more
    await answer()
    expect(rows()).toBe(200)
    expect(status.textContent).toBe('200 of 250 persons')
    expect(document.activeElement).toBe(more)

    more.click()
    await answer()
    expect(rows()).toBe(250)
    expect(status.textContent).toBe('250 persons')
    expect(more.hidden).toBe(true)
    // The button went away under the keyboard's focus: it moves to Close, still in the dialog.
    expect(document.activeElement?.textContent).toBe('Close')
    // Each page on the people URL's own path (not the host `next` names), with `next`'s limit and offset.
    expect(asked).toEqual([
      `${selection.url}&limit=100`,
      `${selection.url.split('?')[0]}?entity_id=signup&date_from=2026-01-08&limit=100&offset=100`,
      `${selection.url.split('?')[0]}?entity_id=signup&date_from=2026-01-08&limit=100&offset=200`,
    ])
    expect([...dialog.querySelectorAll('tbody th')].at(-1)?.textContent).toBe('u249')
    dialog.close()
    expect(document.activeElement).toBe(opener)
  })

  test('a list of one page has no button; an empty one says so', async () => {
    const one = pagedApi(3)
    const dialog = showPersons(document, one.api, selection)
    await one.answer()
    expect(dialog.querySelectorAll('tbody tr')).toHaveLength(3)
    expect(dialog.querySelector('[role="status"]')!.textContent).toBe('3 persons')
    expect(dialog.querySelector<HTMLButtonElement>('button.sightline-more')!.hidden).toBe(true)
    dialog.close()
    const none = pagedApi(0)
    const empty = showPersons(document, none.api, selection)
    await none.answer()
    expect(empty.querySelector('[role="status"]')!.textContent).toBe('No persons.')
    expect(empty.querySelector('table')!.closest('[hidden]')).not.toBeNull()
  })

  test('a page that fails is said in words, keeps the persons shown, and can be asked again', async () => {
    const { api, asked, answer } = pagedApi(150, new Set([2]))
    const dialog = showPersons(document, api, selection)
    await answer()
    const more = dialog.querySelector<HTMLButtonElement>('button.sightline-more')!
    more.click()
    await answer()
    expect(dialog.querySelector('[role="alert"]')!.textContent).toBe('Could not load the persons: The query took too long and was stopped.')
    expect(dialog.querySelectorAll('tbody tr')).toHaveLength(100)
    expect(more.hidden).toBe(false)
    expect(more.textContent).toBe('Try loading more persons again')
    more.click()
    await answer()
    expect(asked[2]).toBe(asked[1])
    expect(dialog.querySelector('[role="alert"]')).toBeNull()
    expect(dialog.querySelectorAll('tbody tr')).toHaveLength(150)
    expect(more.hidden).toBe(true)
  })

  test('the next page’s request: `next`’s query on the path asked', () => {
    expect(nextPageOf('api/projects/1/persons/funnel/?funnel_step=2&limit=100', 'http://internal:8000/base/api/projects/1/persons/funnel/?funnel_step=2&limit=100&offset=100')).toBe(
      'api/projects/1/persons/funnel/?funnel_step=2&limit=100&offset=100',
    )
  })
})

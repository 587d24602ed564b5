import { el } from '../dom.js'
import type { InsightAnswer } from '../wire.js'
import type { Api } from './api-client.js'

/** Runs one analysis at a time for a page, with the loading state, the Cancel button and the errors in words. */
export interface QueryRunner {
  /** Starts `work` (cancelling the one before), shows its progress, and resolves to its answer, or null if it failed or was cancelled. */
  run(work: (signal: AbortSignal, clientQueryId: string) => Promise<InsightAnswer>): Promise<InsightAnswer | null>
  /** The status line and the Cancel button, to put in the page. */
  readonly element: HTMLElement
}

/**
 * A runner whose Cancel stops the browser's request and asks the server to
 * stop the query (`POST insights/cancel/` with the request's
 * `client_query_id`), which then answers 400 `query_was_cancelled`.
 */
export function queryRunner(doc: Document, api: Api, projectId: number, pageSignal: AbortSignal): QueryRunner {
  const status = el(doc, 'span', { class: 'sightline-status', role: 'status', 'aria-live': 'polite' })
  const error = el(doc, 'p', { class: 'sightline-error', role: 'alert', hidden: true })
  const cancel = el(doc, 'button', { type: 'button', class: 'secondary sightline-cancel', hidden: true, text: 'Cancel query' })
  let current: { abort: AbortController; id: string } | null = null

  const stop = (why: string) => {
    if (!current) return
    const { abort, id } = current
    current = null
    abort.abort()
    void api.post(`api/projects/${projectId}/insights/cancel/`, { client_query_id: id }).catch(() => {
      // The query may have ended meanwhile; nothing is left to cancel.
    })
    cancel.hidden = true
    status.textContent = why
  }
  cancel.addEventListener('click', () => stop('Cancelled. Change a setting or press Refresh to run it again.'))
  pageSignal.addEventListener('abort', () => stop(''))

  return {
    element: el(doc, 'div', { class: 'sightline-run' }, status, ' ', cancel, error),
    async run(work) {
      stop('')
      const mine = { abort: new AbortController(), id: clientQueryId() }
      current = mine
      error.hidden = true
      status.textContent = 'Computing…'
      cancel.hidden = false
      try {
        const answer = await work(mine.abort.signal, mine.id)
        if (current !== mine) return null
        status.textContent = freshness(answer)
        return answer
      } catch (e) {
        if (current !== mine) return null
        status.textContent = ''
        error.textContent = `The query failed: ${e instanceof Error ? e.message : String(e)}`
        error.hidden = false
        return null
      } finally {
        if (current === mine) {
          current = null
          cancel.hidden = true
        }
      }
    },
  }
}

/** `is_cached` and `last_refresh` in words. */
export function freshness(answer: Pick<InsightAnswer, 'is_cached' | 'last_refresh'>): string {
  const when = answer.last_refresh ? new Date(answer.last_refresh.replace(/(\.\d{3})\d*Z$/, '$1Z')) : null
  const at = when && !Number.isNaN(when.getTime()) ? when.toLocaleString() : 'an unknown time'
  const cached = answer.is_cached === true || answer.is_cached === 'true'
  return cached ? `From the cache, computed ${at}.` : `Computed ${at}.`
}

/** A query id the server can cancel by (`crypto.randomUUID` needs a secure context; a plain-http LAN page has none). */
function clientQueryId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  return `q-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
}

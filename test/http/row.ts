import { expect } from 'vitest'
import type { Answer } from './harness.js'
import type { Check } from './interface-rows.shapes.js'
import type { State } from './rows-world.js'

/** One row of interface section 4, and the helpers rows send their requests with. */

export type Csv =
  | { readonly kind: 'records'; readonly columns: ReadonlyArray<string> }
  | { readonly kind: 'analysis'; readonly file: string; readonly columns: ReadonlyArray<string> }
  | { readonly kind: 'refused' }
  | { readonly kind: 'bodiless' }

export interface Row {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  /** As in the document's table, under the section's prefix. */
  readonly path: string
  readonly status: number
  /** Sends the row's request; `format` is added to its query when given. */
  readonly send: (s: State, format?: string) => Promise<Answer>
  /** The documented answer; none for a bodiless one. */
  readonly shape?: (s: State) => Check
  /** Values the document (or a decision) fixes. */
  readonly values?: (body: any, s: State, answer: Answer) => Promise<void> | void
  /** 4.2's rows: what `?format=csv` answers. */
  readonly csv?: Csv
}

let current: ((method: string, path: string, body?: unknown) => Promise<Answer>) | undefined
/** Sends through the world opened last (rows run one storage at a time); absolute URLs (`next`) keep only their path. */
export const call = (method: string, path: string, body?: unknown): Promise<Answer> => {
  if (!current) throw new Error('no rows world is open')
  return current(method, path, body)
}
export const useCall = (send: typeof call) => {
  current = send
}
export const withFormat = (path: string, format?: string) => (format === undefined ? path : `${path}${path.includes('?') ? '&' : '?'}format=${format}`)
export const get = (path: (s: State) => string) => (s: State, format?: string) => call('GET', withFormat(path(s), format))
export const send = (method: 'POST' | 'PATCH' | 'DELETE', path: (s: State) => string, body?: (s: State) => unknown) => (s: State, format?: string) =>
  call(method, withFormat(path(s), format), body?.(s))
export const queryOf = (params: Record<string, unknown>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, JSON.stringify(v)])).toString()

/** 2.1: `limit=1&offset=1` of a list of three or more: one record, the second; both links; `count` the total; the links lead to the neighbours. */
export async function pages(listPath: string, body: any): Promise<void> {
  const all = (await call('GET', `${listPath}?limit=1000`)).body
  expect(all.results.length).toBeGreaterThanOrEqual(3)
  expect(all).toMatchObject({ count: all.results.length, next: null, previous: null })
  expect(body.count).toBe(all.count)
  expect(body.results).toEqual([all.results[1]])
  expect(typeof body.next).toBe('string')
  expect(typeof body.previous).toBe('string')
  expect((await call('GET', body.next)).body.results).toEqual([all.results[2]])
  expect((await call('GET', body.previous)).body.results).toEqual([all.results[0]])
}

/** Each field sent is answered as sent. */
export const echoes = (body: any, sent: Record<string, unknown>) => expect(Object.fromEntries(Object.keys(sent).map((k) => [k, body[k]]))).toEqual(sent)

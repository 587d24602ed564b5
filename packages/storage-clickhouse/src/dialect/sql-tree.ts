import { skipOpaque } from './sql-text.js'

/** A token of compiled SQL: a word (keyword or bare name), a quoted name, opaque text (a literal or placeholder), or one character. */
export interface SqlToken {
  readonly kind: 'word' | 'name' | 'opaque' | 'other'
  /** A word in lower case, a quoted name without its quotes; the text otherwise. */
  readonly value: string
  readonly start: number
  readonly end: number
}

/** A parenthesised part: its items, tokens and nested groups. */
export interface SqlGroup {
  readonly kind: 'group'
  readonly start: number
  readonly end: number
  readonly items: ReadonlyArray<SqlItem>
}

export type SqlItem = SqlToken | SqlGroup

const WORD = /^[A-Za-z_][A-Za-z0-9_$]*/
const NUMBER = /^[0-9][0-9.]*(?:[eE][+-]?[0-9]+)?/

/**
 * Compiled SQL as ClickHouse reads it, for structural checks and rewrites:
 * tokens nested by parentheses. String literals, quoted names and
 * `{name:Type}` placeholders are single tokens (`sql-text.ts`), so nothing
 * inside them is taken for SQL; comments are skipped. An unbalanced `)`
 * closes nothing; an unclosed `(` ends with the text.
 */
export function sqlTree(sql: string): SqlItem[] {
  const root: SqlItem[] = []
  const stack: Array<{ start: number; items: SqlItem[] }> = []
  let items = root
  let i = 0
  while (i < sql.length) {
    const c = sql[i]!
    if (/\s/.test(c)) {
      i++
      continue
    }
    if (sql.startsWith('--', i)) {
      const newline = sql.indexOf('\n', i)
      i = newline < 0 ? sql.length : newline + 1
      continue
    }
    if (sql.startsWith('/*', i)) {
      const close = sql.indexOf('*/', i + 2)
      i = close < 0 ? sql.length : close + 2
      continue
    }
    const opaque = skipOpaque(sql, i)
    if (opaque > i) {
      const quotedName = c === '"' || c === '`'
      items.push({ kind: quotedName ? 'name' : 'opaque', value: quotedName ? sql.slice(i + 1, opaque - 1) : sql.slice(i, opaque), start: i, end: opaque })
      i = opaque
      continue
    }
    if (c === '(') {
      stack.push({ start: i, items })
      items = []
      i++
      continue
    }
    if (c === ')') {
      const open = stack.pop()
      if (open) {
        const group: SqlGroup = { kind: 'group', start: open.start, end: i + 1, items }
        items = open.items
        items.push(group)
      }
      i++
      continue
    }
    const word = WORD.exec(sql.slice(i, i + 256))
    if (word) {
      items.push({ kind: 'word', value: word[0].toLowerCase(), start: i, end: i + word[0].length })
      i += word[0].length
      continue
    }
    const number = NUMBER.exec(sql.slice(i, i + 64))
    const length = number ? number[0].length : 1
    items.push({ kind: 'other', value: sql.slice(i, i + length), start: i, end: i + length })
    i += length
  }
  // Unclosed groups end with the text.
  while (stack.length > 0) {
    const open = stack.pop()!
    const group: SqlGroup = { kind: 'group', start: open.start, end: sql.length, items }
    items = open.items
    items.push(group)
  }
  return root
}

/** Whether `item` is the word `value` (lower case). */
export const isWord = (item: SqlItem | undefined, value: string): boolean => item !== undefined && item.kind === 'word' && item.value === value

/** Whether `item` is a parenthesised query: `(select ...)`, `(with ...)`, or a parenthesised query's union `((select ...) union ...)`. */
export function isQuery(item: SqlItem | undefined): boolean {
  if (item === undefined || item.kind !== 'group') return false
  const first = item.items[0]
  return isWord(first, 'select') || isWord(first, 'with') || (first?.kind === 'group' && isQuery(first))
}

/** Whether `item` is the character (or number) `value`. */
export const isOther = (item: SqlItem | undefined, value: string): boolean => item !== undefined && item.kind === 'other' && item.value === value

/** Whether `item` is a name: a bare word or a quoted name. */
export const isName = (item: SqlItem | undefined): item is SqlToken => item !== undefined && (item.kind === 'word' || item.kind === 'name')

/**
 * The table expression starting at `items[i]`: a group, or a name; a
 * qualified name (`db.events`) as its last part, spanning the whole.
 */
export function tableAt(items: ReadonlyArray<SqlItem>, i: number): SqlItem | undefined {
  const first = items[i]
  if (!isName(first)) return first
  let last = first
  while (isOther(items[i + 1], '.') && isName(items[i + 2])) {
    last = items[i + 2] as SqlToken
    i += 2
  }
  return last === first ? first : { ...last, start: first.start }
}

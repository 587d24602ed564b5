/**
 * Reading compiled SQL text as ClickHouse reads it, for the compiler's
 * rewrites: string literals (with backslash escapes and doubled quotes),
 * quoted identifiers and `{name:Type}` placeholders are opaque.
 */

/** The index past a string literal, quoted identifier or placeholder starting at `i`; `i` when none starts there. */
export function skipOpaque(sql: string, i: number): number {
  const open = sql[i]
  const close = open === "'" ? "'" : open === '"' ? '"' : open === '`' ? '`' : open === '{' ? '}' : undefined
  if (close === undefined) return i
  let j = i + 1
  while (j < sql.length) {
    if (sql[j] === '\\' && open !== '{') j += 2
    else if (sql[j] === close && open !== '{' && sql[j + 1] === close) j += 2 // a doubled quote
    else if (sql[j] === close) return j + 1
    else j++
  }
  return sql.length
}

/** The index of the `)` closing the `(` at `open` (opaque text skipped), or the end of `sql`. */
export function closingParenthesis(sql: string, open: number): number {
  let depth = 0
  let j = open
  while (j < sql.length) {
    const skipped = skipOpaque(sql, j)
    if (skipped > j) {
      j = skipped
      continue
    }
    if (sql[j] === '(') depth++
    else if (sql[j] === ')' && --depth === 0) return j
    j++
  }
  return sql.length
}

/** The index of the `,` or `)` that ends the argument starting at `i` (parentheses nested in it are skipped). */
export function endOfArgument(sql: string, i: number): number {
  let depth = 0
  let j = i
  while (j < sql.length) {
    const skipped = skipOpaque(sql, j)
    if (skipped > j) {
      j = skipped
      continue
    }
    const c = sql[j]
    if (c === '(') depth++
    else if (c === ')' && depth === 0) return j
    else if (c === ')') depth--
    else if (c === ',' && depth === 0) return j
    j++
  }
  return j
}

/**
 * `sql` with the first argument of every call to one of `names` (a word,
 * outside opaque text, followed by `(`) replaced by `rewrite(argument)`,
 * the argument already rewritten within.
 */
export function rewriteFirstArguments(sql: string, names: RegExp, rewrite: (argument: string) => string): string {
  let out = ''
  let i = 0
  while (i < sql.length) {
    const skipped = skipOpaque(sql, i)
    if (skipped > i) {
      out += sql.slice(i, skipped)
      i = skipped
      continue
    }
    const call = names.exec(sql.slice(i, i + 16))
    if (call && call.index === 0 && !/[A-Za-z0-9_$.]/.test(sql[i - 1] ?? '')) {
      const argStart = i + call[0].length
      const argEnd = endOfArgument(sql, argStart)
      out += call[0] + rewrite(rewriteFirstArguments(sql.slice(argStart, argEnd), names, rewrite))
      i = argEnd
      continue
    }
    out += sql[i]
    i++
  }
  return out
}

/**
 * Compiled SQL with the first argument of every `lag(...)` and `lead(...)`
 * wrapped in `toNullable(...)`. SQL's `lag` and `lead` are null where the
 * partition has no such row; ClickHouse's give the type's default (0, '')
 * unless the value is Nullable, so `lag(d) over w` means
 * `lag(toNullable(d)) over w` there. Reads the text as ClickHouse does:
 * string literals (with backslash escapes), quoted identifiers and
 * `{name:Type}` placeholders are never looked into.
 */
export function nullableWindowShifts(sql: string): string {
  if (!/\b(lag|lead)\s*\(/i.test(sql)) return sql
  let out = ''
  let i = 0
  while (i < sql.length) {
    const skipped = skipOpaque(sql, i)
    if (skipped > i) {
      out += sql.slice(i, skipped)
      i = skipped
      continue
    }
    const call = /^(lag|lead)\s*\(/i.exec(sql.slice(i, i + 6))
    if (call && !/[A-Za-z0-9_$.]/.test(sql[i - 1] ?? '')) {
      const argStart = i + call[0].length
      const argEnd = endOfArgument(sql, argStart)
      out += `${call[0]}toNullable(${nullableWindowShifts(sql.slice(argStart, argEnd))})`
      i = argEnd
      continue
    }
    out += sql[i]
    i++
  }
  return out
}

/** The index past a string literal, quoted identifier or placeholder starting at `i`; `i` when none starts there. */
function skipOpaque(sql: string, i: number): number {
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

/** The index of the `,` or `)` that ends the argument starting at `i` (parentheses nested in it are skipped). */
function endOfArgument(sql: string, i: number): number {
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

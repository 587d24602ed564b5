import { rewriteFirstArguments } from './sql-text.js'

/**
 * Compiled SQL with the first argument of every `lag(...)` and `lead(...)`
 * wrapped in `toNullable(...)`. SQL's `lag` and `lead` are null where the
 * partition has no such row; ClickHouse's give the type's default (0, '')
 * unless the value is Nullable, so `lag(d) over w` means
 * `lag(toNullable(d)) over w` there. Literals, quoted identifiers and
 * placeholders are never looked into (`sql-text.ts`).
 */
export function nullableWindowShifts(sql: string): string {
  if (!/\b(lag|lead)\s*\(/i.test(sql)) return sql
  return rewriteFirstArguments(sql, /^(lag|lead)\s*\(/i, (argument) => `toNullable(${argument})`)
}

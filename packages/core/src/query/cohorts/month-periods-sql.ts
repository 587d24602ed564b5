import { sql, type Expression, type RawBuilder } from 'kysely'
import type { SqlHooks } from '../../storage.js'

const DAY = 86_400_000_000
/** Days from 0000-03-01 to 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`). */
const EPOCH_DAYS = 719_468
/** Month lengths from March (index 0) to January (10); February (11) is computed. */
const LENGTHS = [31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 31]

/** Integers the compiler computed (never user text), inlined. */
const lit = (n: number): Expression<number> => {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${n}`)
  return sql.lit(n) as Expression<number>
}

/**
 * `select person_uuid, p` from `rows` (`person_uuid, ts`, every `ts <=
 * now`): `p` the index of the period of `months` calendar months holding
 * `ts`, period p being `(now - m(p + 1) months, now - mp months]` as
 * ClickHouse's `now() - INTERVAL k MONTH` steps back (UTC, the time of day
 * kept, the day clamped: `addCalendarMonths`). Computed per row, so the SQL
 * has the same size for any number of periods: ts is k whole months back
 * when `now - (k + 1) months < ts <= now - k months`; with d the difference
 * of the UTC months of now and ts, `now - d months` falls in ts's month on
 * day min(now's day, the month's length) at now's time of day, and k is d,
 * or d - 1 when ts is later than that. The UTC calendar date of ts comes
 * from integer arithmetic on its epoch microseconds (Hinnant's
 * `civil_from_days`), shifted to count from 0000-03-01 so every division
 * has a non-negative dividend, as `intDiv` wants; the same on every database.
 */
export function monthPeriodsSql(rows: RawBuilder<unknown>, now: Date, months: number, hooks: SqlHooks, n: number): RawBuilder<unknown> {
  const { intDiv, epochMicros } = hooks
  // The dividend in brackets: a dialect may spell intDiv as an operator binding tighter than + and -.
  const div = (a: RawBuilder<unknown> | Expression<unknown>, b: number) => intDiv(sql<number>`(${a})`, lit(b))
  const t = (k: string) => sql.raw(`cm${n}${k}`)
  const [r, a, b, c, d, f, g] = ['r', 'a', 'b', 'c', 'd', 'f', 'g'].map(t) as [RawBuilder<unknown>, ...RawBuilder<unknown>[]]
  const nowIndex = now.getUTCFullYear() * 12 + now.getUTCMonth()
  const nowDay = now.getUTCDate()
  const nowTimeOfDay = (((now.getTime() % 86_400_000) + 86_400_000) % 86_400_000) * 1000
  // The day `now - d months` falls on in ts's month: now's day, clamped to the month's length (by mp, from March).
  const leap = sql`(${g}.yoe + 1 - ${div(sql`${g}.yoe + 1`, 4)} * 4 = 0 and (${g}.yoe + 1 - ${div(sql`${g}.yoe + 1`, 100)} * 100 <> 0 or ${g}.yoe = 399))`
  const clampedDay = sql`(case ${sql.join(
    LENGTHS.map((len, mp) => sql`when ${g}.mp = ${lit(mp)} then ${lit(Math.min(nowDay, len))}`),
    sql` `,
  )} when ${leap} then ${lit(Math.min(nowDay, 29))} else ${lit(Math.min(nowDay, 28))} end)`
  const dayOfMonth = sql`(${g}.doy - ${div(sql`153 * ${g}.mp + 2`, 5)} + 1)`
  const later = sql`(case when ${dayOfMonth} > ${clampedDay} or (${dayOfMonth} = ${clampedDay} and ${g}.tod > ${lit(nowTimeOfDay)}) then 1 else 0 end)`
  const monthIndex = sql`((${g}.era * 400 + ${g}.yoe) * 12 + ${g}.mp + 2)`
  const shifted = sql`(${epochMicros(sql`${r}.ts`)} + cast(${lit(EPOCH_DAYS)} as bigint) * ${lit(DAY)})`
  return sql`select ${g}.person_uuid, ${div(sql`${lit(nowIndex)} - ${monthIndex} - ${later}`, months)} as p from (
      select ${f}.person_uuid, ${f}.tod, ${f}.era, ${f}.yoe, ${f}.doy, ${div(sql`5 * ${f}.doy + 2`, 153)} as mp from (
        select ${d}.person_uuid, ${d}.tod, ${d}.era, ${d}.yoe, ${d}.doe - (365 * ${d}.yoe + ${div(sql`${d}.yoe`, 4)} - ${div(sql`${d}.yoe`, 100)}) as doy from (
          select ${c}.person_uuid, ${c}.tod, ${c}.era, ${c}.doe,
            ${div(sql`${c}.doe - ${div(sql`${c}.doe`, 1460)} + ${div(sql`${c}.doe`, 36524)} - ${div(sql`${c}.doe`, 146096)}`, 365)} as yoe from (
            select ${b}.person_uuid, ${b}.s - ${b}.z * ${lit(DAY)} as tod, ${div(sql`${b}.z`, 146097)} as era, ${b}.z - ${div(sql`${b}.z`, 146097)} * 146097 as doe from (
              select ${a}.person_uuid, ${a}.s, ${div(sql`${a}.s`, DAY)} as z from (
                select ${r}.person_uuid, ${shifted} as s from (${rows}) as ${r}
              ) as ${a}
            ) as ${b}
          ) as ${c}
        ) as ${d}
      ) as ${f}
    ) as ${g}`
}

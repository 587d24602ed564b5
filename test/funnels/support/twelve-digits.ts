/**
 * Fractions to 12 significant digits. Averages and medians are sums over rows divided by counts, added up in another
 * order by the database than by the reference: they agree to the last bit or two (the Postgres server answered an
 * Other row's average as 565.7142857142858, the reference 565.7142857142857, at seed -1486335064; DuckDB's mean of
 * microseconds over a million, 15428.571428571428, against the reference's mean of seconds, 15428.57142857143, in the
 * DST property at seed 1122311309). Counts and integers compare exactly.
 */
export const toTwelveDigits = <T>(value: T): T =>
  JSON.parse(JSON.stringify(value), (_key, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v)) as T

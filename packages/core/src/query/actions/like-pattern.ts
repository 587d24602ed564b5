/**
 * PostHog matches a step's `url` with `contains` as ClickHouse's
 * `like '%url%'`: `%` is any text, `_` any one character, and `\` makes the
 * next `%`, `_` or `\` literal (any other `\` is itself). The pattern returned
 * spells the same match for `LIKE ... ESCAPE '\'` on every database: only
 * `%`, `_` and `\` are ever escaped, and it always ends with an unescaped `%`.
 */
export function containsLikePattern(url: string): string {
  let out = '%'
  const chars = [...url]
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!
    if (c === '\\' && i + 1 < chars.length && (chars[i + 1] === '%' || chars[i + 1] === '_' || chars[i + 1] === '\\')) {
      out += `\\${chars[++i]}`
    } else if (c === '\\') {
      out += '\\\\'
    } else {
      out += c
    }
  }
  return `${out}%`
}

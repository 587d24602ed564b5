/**
 * PostHog's `element` filters (posthog/hogql/property.py): regular expressions
 * over the events' `elements_chain`, `tag.classA.classB:key="value"...;...`
 * (see ingest/elements-chain.ts). Pure functions from a filter to a pattern,
 * so the SQL compiler and the tests' reference build the same regexes.
 */

/** Escapes what RE2, Postgres AREs and JavaScript (`u`) treat as special, as Python's `re.escape` does for them. */
export const escapeRegex = (s: string): string => s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')

/** A value as the chain spells it inside quotes: `"` escaped as `\"`. */
const chainEscaped = (s: string) => s.replace(/"/g, '\\"')

export type ElementKeyOperator = 'exact' | 'is_not' | 'icontains' | 'not_icontains' | 'regex' | 'not_regex' | 'is_set' | 'is_not_set'

/**
 * `element_chain_key_filter`: the pattern for `text` or `href`. The match is
 * negated for is_not, not_icontains, not_regex and is_not_set. For icontains
 * the pattern is in lower case and must be matched against the chain folded
 * to lower case (ASCII, as every icontains in Sightline) instead of ClickHouse's `=~*`.
 */
export function elementKeyPattern(key: 'text' | 'href', value: string, operator: ElementKeyOperator): string {
  const escaped = chainEscaped(value)
  switch (operator) {
    case 'is_set':
    case 'is_not_set':
      return `(${key}="[^"]+")`
    case 'icontains':
    case 'not_icontains':
      return `(${key}="[^"]*${escapeRegex(escaped.replace(/[A-Z]/g, (c) => c.toLowerCase()))}[^"]*")`
    case 'regex':
    case 'not_regex':
      // PostHog writes `"` as `\"`, which RE2 reads as a plain `"`; JavaScript's `u` mode refuses `\"`, so it is left plain.
      return `(${key}="${value}")`
    case 'exact':
    case 'is_not':
      return `(${key}="${escapeRegex(escaped)}")`
  }
}

/**
 * `tag_name_to_expr`. PostHog splices the tag name into the regex unescaped;
 * it is escaped here, which changes nothing for a real tag name.
 */
export const tagNamePattern = (tagName: string): string => `(^|;)${escapeRegex(tagName)}(\\.|$|;|:)`

interface SelectorPart {
  tag?: string
  classes: string[]
  attributes: Record<string, string>
  directDescendant: boolean
}

const TAG = /^(\*|[a-zA-Z][a-zA-Z0-9-]*)/
const NAME = /^[^\s.#[\]:>"';]+/
const ATTRIBUTE = /^\[\s*([a-zA-Z_][a-zA-Z0-9_.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')\s*\]/
const POSITION = /^:(nth-child|nth-of-type)\((\d+)\)/

/**
 * Parses the CSS subset PostHog's `Selector` reads: parts separated by spaces
 * or `>`, each an optional tag (or `*`), `#id`, `.class`, `[attr="v"]` and
 * `:nth-child(n)` / `:nth-of-type(n)`. Returns the parts innermost first (the
 * chain's order), or a message saying what is not supported.
 */
export function parseSelector(selector: string): SelectorPart[] | string {
  const tokens = splitSelector(selector)
  const parts: SelectorPart[] = []
  for (const [i, token] of tokens.entries()) {
    if (token === '>') {
      if (i === 0 || i === tokens.length - 1 || tokens[i + 1] === '>') return 'a ">" needs a selector on each side'
      continue
    }
    const part = parsePart(token)
    if (typeof part === 'string') return part
    // PostHog's quirk, kept: the part written before ">" (the parent) is the one marked direct.
    part.directDescendant = tokens[i + 1] === '>'
    parts.push(part)
  }
  if (parts.length === 0) return 'an empty selector selects nothing'
  return parts.reverse()
}

/** Splits at spaces and `>` outside `[...]` and quotes, as PostHog's `Selector._split`. */
function splitSelector(selector: string): string[] {
  const tokens: string[] = []
  let current = ''
  let inBrackets = false
  let quote: string | null = null
  const flush = () => {
    if (current !== '') tokens.push(current)
    current = ''
  }
  for (const ch of selector) {
    if (quote === null && ch === '[') inBrackets = true
    if (quote === null && ch === ']') inBrackets = false
    if (inBrackets && (ch === '"' || ch === "'")) quote = quote === null ? ch : quote === ch ? null : quote
    if (!inBrackets && /\s/.test(ch)) flush()
    else if (!inBrackets && ch === '>') (flush(), tokens.push('>'))
    else current += ch
  }
  flush()
  return tokens
}

function parsePart(token: string): SelectorPart | string {
  const part: SelectorPart = { classes: [], attributes: {}, directDescendant: false }
  let rest = token
  const tag = TAG.exec(rest)
  if (tag) {
    if (tag[1] !== '*') part.tag = tag[1]
    rest = rest.slice(tag[0].length)
  }
  while (rest !== '') {
    let m: RegExpExecArray | null
    if (rest[0] === '.' && (m = NAME.exec(rest.slice(1)))) {
      part.classes.push(m[0])
      rest = rest.slice(1 + m[0].length)
    } else if (rest[0] === '#' && (m = NAME.exec(rest.slice(1)))) {
      part.attributes.attr_id = m[0]
      rest = rest.slice(1 + m[0].length)
    } else if ((m = ATTRIBUTE.exec(rest))) {
      part.attributes[m[1] === 'id' ? 'attr_id' : m[1]!] = m[2] ?? m[3]!
      rest = rest.slice(m[0].length)
    } else if ((m = POSITION.exec(rest))) {
      part.attributes[m[1]!] = m[2]!
      rest = rest.slice(m[0].length)
    } else {
      return `unsupported selector syntax at ${JSON.stringify(rest)}`
    }
  }
  return part
}

/** What may follow a part's conditions up to the end of its element (posthog/models/property/util.py). */
const PART_TAIL = '([-_a-zA-Z0-9\\.:"= \\[\\]\\(\\),]*?)?($|;|:([^;^\\s]*(;|$|\\s)))'

/** `build_selector_regex` over parsed parts (innermost first). */
export function selectorPattern(parts: ReadonlyArray<SelectorPart>): string {
  let regex = ''
  for (const part of parts) {
    if (part.tag) regex += escapeRegex(part.tag)
    if (part.classes.length > 0) regex += '.*?\\.' + [...part.classes].sort().map(escapeRegex).join('\\..*?')
    const attributes = Object.entries(part.attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    if (attributes.length > 0) {
      regex += '.*?'
      for (const [key, value] of attributes) regex += `${escapeRegex(key)}="${escapeRegex(chainEscaped(value))}".*?`
    }
    regex += PART_TAIL
    if (part.directDescendant) regex += '.*'
  }
  return `(^|;)${regex}`
}

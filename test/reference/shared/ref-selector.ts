/**
 * PostHog's `selector` matching (element filters and action steps) over an
 * elements chain, written from PostHog's Python and sharing nothing with core:
 * - parsing: `Selector` / `SelectorPart` of posthog/models/event/event.py. The
 *   split at spaces, the reversal and the "direct descendant" flag are the same
 *   in every version; a part's attributes are read as in PostHog's #80653
 *   (every `[k="v"]` excised and the rest of the part kept), not as before it
 *   (one greedy search whose letters before `[` replaced the whole tag, so
 *   `span.btn[href="/b"]` became the tag `btn`).
 * - matching: `build_selector_regex` of posthog/models/property/util.py as the
 *   index stores it (commit 2db92655): `(^|;)` then, per part innermost first,
 *   tag, `.*?`-joined sorted classes, sorted attributes, the allowlist tail, and
 *   `.*` after a part marked direct. Values are quoted as `_chain_escaped_value`.
 * A chain matches when the regex is found anywhere in it.
 */

export interface RefSelectorPart {
  tag?: string
  classes: string[]
  /** Chain keys (`attr_id`, `nth-child`, a custom attribute's own name) to values. */
  attributes: Record<string, string>
  directDescendant: boolean
}

// posthog/models/event/event.py, #80653.
const ATTRIBUTE = /\[\s*([^\]\s=]+)\s*=\s*(['"])(.*?)\2\s*\]/g
const POSITIONAL = /:(nth-child|nth-of-type)\((\d+)\)/g
// Dots outside `[...]` (Tailwind's `shadow-[0.1]`): `re.split(r"\.(?![^\[]*\])", tag)`.
const CLASS_DOT = /\.(?![^[]*\])/

/** `_unescape_class`: `\\` stands for `\`, any other `\` goes. */
const unescapeClass = (name: string) => name.split('\\\\').map((p) => p.replaceAll('\\', '')).join('\\')

/** Excises every match of `re` from `s`, as PostHog does, last first. */
function excise(s: string, matches: RegExpMatchArray[]): string {
  for (const m of [...matches].reverse()) s = s.slice(0, m.index!) + s.slice(m.index! + m[0].length)
  return s
}

function parsePart(token: string, directDescendant: boolean): RefSelectorPart {
  const part: RefSelectorPart = { classes: [], attributes: {}, directDescendant }
  let tag = token
  const attributes = [...tag.matchAll(ATTRIBUTE)]
  for (const m of attributes) part.attributes[m[1] === 'id' ? 'attr_id' : m[1]!] = m[3]!
  tag = excise(tag, attributes)
  const positions = [...tag.matchAll(POSITIONAL)]
  for (const m of positions) part.attributes[m[1]!] = m[2]!
  tag = excise(tag, positions)
  if (tag.includes('.')) {
    const pieces = tag.split(CLASS_DOT)
    part.classes = pieces.slice(1).map(unescapeClass)
    tag = pieces[0]!
  }
  if (tag.includes('#')) {
    const pieces = tag.split('#')
    part.attributes.attr_id = unescapeClass(pieces[1]!)
    tag = pieces[0]!
  }
  if (tag !== '') part.tag = tag
  return part
}

/** `Selector._split`: at spaces only (not `>` nor other white space), outside `[...]`. */
function splitAtSpaces(selector: string): string[] {
  const tokens: string[] = []
  let inAttribute = false
  let quote: string | null = null
  let current = ''
  for (const ch of selector) {
    if (ch === '[' && quote === null) inAttribute = true
    if (ch === ']' && quote === null) inAttribute = false
    if (ch === '"' || ch === "'") quote = quote === null ? ch : quote === ch ? null : quote
    if (ch === ' ' && !inAttribute) {
      tokens.push(current)
      current = ''
    } else current += ch
  }
  tokens.push(current)
  return tokens
}

/**
 * `Selector(selector).parts`: innermost first. The part written before a `>`
 * (the parent) is the one marked direct, PostHog's own reading.
 */
export function parseRefSelector(selector: string): RefSelectorPart[] {
  // "Sometimes people manually add *, just remove them as they don't do anything."
  const cleaned = selector.replaceAll('> * > ', '').replaceAll('> *', '').replaceAll('\\:', ':').trim()
  const tags = splitAtSpaces(cleaned).reverse()
  const parts: RefSelectorPart[] = []
  tags.forEach((tag, i) => {
    if (tag === '>' || tag === '') return
    parts.push(parsePart(tag, i > 0 && tags[i - 1] === '>'))
  })
  return parts
}

/**
 * Python's `re.escape` also escapes `-`, `#`, `&`, `~` and white space, which
 * are literal either way; JavaScript's `u` mode refuses those escapes.
 */
const reEscape = (s: string) => s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')

/** `_chain_escaped_value`: a quote written bare or as `\"` becomes the chain's `\"`. */
const chainEscaped = (value: string) => value.replaceAll('\\"', '"').replaceAll('"', '\\"')

const TAIL = '([-_a-zA-Z0-9\\.:"= \\[\\]\\(\\),]*?)?($|;|:([^;^\\s]*(;|$|\\s)))'
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** `build_selector_regex`; '' for a selector without parts. */
export function refSelectorRegex(selector: string): string {
  let regex = ''
  for (const part of parseRefSelector(selector)) {
    if (part.tag && part.tag !== '*') regex += reEscape(part.tag)
    if (part.classes.length > 0) regex += '.*?\\.' + [...part.classes].sort(byCodePoint).map(reEscape).join('\\..*?')
    const attributes = Object.entries(part.attributes).sort(([a], [b]) => byCodePoint(a, b))
    if (attributes.length > 0) {
      regex += '.*?'
      for (const [key, value] of attributes) regex += `${reEscape(key)}="${reEscape(chainEscaped(value))}".*?`
    }
    regex += TAIL
    if (part.directDescendant) regex += '.*'
  }
  return regex === '' ? '' : `(^|;)${regex}`
}

/** Whether `chain` has an element `selector` selects (an empty regex is found in any chain). */
export const refSelectorMatches = (selector: string, chain: string): boolean => new RegExp(refSelectorRegex(selector), 'u').test(chain)

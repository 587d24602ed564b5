/**
 * PostHog's action matching (`action_to_expr`, posthog/hogql/property.py)
 * over plain objects, written from those semantics and independent of
 * Sightline's SQL compiler: the reference the action property tests compare with.
 */
import { referenceMatches, textOf, type RefFilters, type RefRow } from './reference-filter.js'

type Matching = 'contains' | 'regex' | 'exact' | null | undefined

export interface RefStep {
  event?: string | null
  url?: string | null
  url_matching?: Matching
  text?: string | null
  text_matching?: Matching
  href?: string | null
  href_matching?: Matching
  selector?: string | null
  tag_name?: string | null
  properties?: RefFilters | null
}

export interface RefEventRow extends RefRow {
  eventName: string
}

/**
 * ClickHouse's `like`, as PostHog's `$current_url like '%url%'`: `%` any text,
 * `_` one character, `\` before `%`, `_` or `\` makes it literal.
 */
export function likeContains(text: string, url: string): boolean {
  const chars = [...url]
  let pattern = ''
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!
    if (c === '\\' && ['%', '_', '\\'].includes(chars[i + 1] ?? '')) pattern += escape(chars[++i]!)
    else if (c === '%') pattern += '[\\s\\S]*'
    else if (c === '_') pattern += '[\\s\\S]'
    else pattern += escape(c)
  }
  return new RegExp(pattern, 'u').test(text)
}
const escape = (c: string) => c.replace(/[\\^$.|?*+()[\]{}/-]/g, '\\$&')

const elementOperator = (m: Matching) => (m === 'regex' ? 'regex' : m === 'contains' ? 'icontains' : 'exact')
const element = (row: RefRow, key: string, value: string, operator = 'exact') => referenceMatches([{ type: 'element', key, value, operator }], row)

function stepMatches(step: RefStep, row: RefEventRow): boolean {
  if (step.event && row.eventName !== step.event) return false
  if (step.event === '$autocapture') {
    if (step.selector && !element(row, 'selector', step.selector)) return false
    if (step.tag_name !== null && step.tag_name !== undefined && !element(row, 'tag_name', step.tag_name)) return false
    if (step.href !== null && step.href !== undefined && !element(row, 'href', step.href, elementOperator(step.href_matching))) return false
    if (step.text !== null && step.text !== undefined && !element(row, 'text', step.text, elementOperator(step.text_matching))) return false
  }
  if (step.url) {
    const current = textOf(Object.hasOwn(row.event, '$current_url') ? row.event.$current_url : undefined)
    if (current === null) return false
    // An absent url_matching means contains (the dataclass default), and so does an explicit null.
    const matching = step.url_matching
    const ok = matching === 'exact' ? current === step.url : matching === 'regex' ? new RegExp(step.url, 'u').test(current) : likeContains(current, step.url)
    if (!ok) return false
  }
  return !step.properties || referenceMatches(step.properties, row)
}

/** Whether the event matches an action with these steps: any step; no steps matches every event. */
export const referenceActionMatches = (steps: ReadonlyArray<RefStep>, row: RefEventRow): boolean =>
  steps.length === 0 || steps.some((s) => stepMatches(s, row))

import type { Properties } from '../model/json.js'

/** One autocaptured element as PostHog's ingestion sees it (plugin-server `Element`). */
interface Element {
  readonly text?: string
  readonly tagName?: string
  readonly href?: string
  readonly classes?: ReadonlyArray<string>
  readonly attrId?: string
  readonly nthChild?: unknown
  readonly nthOfType?: unknown
  readonly attributes: Readonly<Record<string, unknown>>
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const escapeQuotes = (s: string) => s.replace(/"/g, '\\"')

/**
 * The event's elements chain, as PostHog's create-event `getElementsChain`:
 * `$elements_chain` when it is a string, else `$elements` serialised; '' when
 * neither. Both keys are removed from `properties`, which PostHog does not store.
 */
export function takeElementsChain(properties: Properties): string {
  const chain = properties.$elements_chain
  const elements = properties.$elements
  delete properties.$elements_chain
  delete properties.$elements
  if (typeof chain === 'string') return chain
  return Array.isArray(elements) ? elementsToString(elements.filter(isObject).map(extractElement)) : ''
}

/** posthog-js's element shape (`tag_name`, `$el_text`, `attr__*`, `nth_child`) to PostHog's `Element`. */
function extractElement(el: Record<string, unknown>): Element {
  const cls = el.attr__class
  return {
    text: text(el.$el_text)?.slice(0, 400),
    tagName: text(el.tag_name),
    href: text(el.attr__href)?.slice(0, 2048),
    classes: Array.isArray(cls) ? cls.map(String) : typeof cls === 'string' && cls !== '' ? cls.split(' ') : undefined,
    attrId: text(el.attr__id),
    nthChild: el.nth_child,
    nthOfType: el.nth_of_type,
    attributes: Object.fromEntries(Object.entries(el).filter(([key]) => key.startsWith('attr__'))),
  }
}

/**
 * PostHog's `elementsToString`: `tag.classA.classB:key="value"...` per element
 * (classes sorted, attributes sorted by key, quotes escaped), joined by `;`.
 */
export function elementsToString(elements: ReadonlyArray<Element>): string {
  return elements
    .map((el) => {
      let out = el.tagName ?? ''
      for (const cls of [...(el.classes ?? [])].sort()) out += `.${cls.replace(/"/g, '')}`
      const attributes: Record<string, unknown> = {
        ...(el.text ? { text: el.text } : {}),
        'nth-child': el.nthChild ?? 0,
        'nth-of-type': el.nthOfType ?? 0,
        ...(el.href ? { href: el.href } : {}),
        ...(el.attrId ? { attr_id: el.attrId } : {}),
        ...el.attributes,
      }
      const entries = Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b))
      return `${out}:${entries.map(([k, v]) => `${escapeQuotes(k)}="${escapeQuotes(stringOf(v))}"`).join('')}`
    })
    .join(';')
}

/** JavaScript's `toString` of a property value, as PostHog's `value.toString()`. */
const stringOf = (v: unknown): string => (v === null || v === undefined ? String(v) : Array.isArray(v) ? v.map((x) => (x === null || x === undefined ? '' : stringOf(x))).join(',') : typeof v === 'object' ? '[object Object]' : String(v))

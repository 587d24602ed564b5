import type { FilterRow } from './filter-db.js'

/**
 * Events with elements chains as PostHog's `elementsToString` writes them,
 * derived by hand: classes sorted, attributes sorted by key, `"` escaped.
 */
export const ELEMENT_ROWS: ReadonlyArray<FilterRow> = [
  {
    id: 1,
    event: { $browser: 'Chrome' },
    elementsChain:
      'a.btn.btn-primary:attr__class="btn btn-primary"attr__href="/signup"href="/signup"nth-child="2"nth-of-type="1"text="Sign up";' +
      'div.hero:attr__class="hero"nth-child="1"nth-of-type="1";body:nth-child="2"nth-of-type="1"',
  },
  { id: 2, event: { $browser: 'Safari' }, elementsChain: 'button:attr__id="save"attr_id="save"nth-child="1"nth-of-type="1"text="Save \\"draft\\"";form:nth-child="1"nth-of-type="1"' },
  { id: 3, event: {}, elementsChain: 'span.label:attr__class="label"nth-child="1"nth-of-type="1"text="SIGN UP now";a:href="https://example.com/pricing"nth-child="3"nth-of-type="2"' },
  { id: 4, event: { $browser: 'Chrome' } },
  { id: 5, event: {}, elementsChain: 'a:href="/docs"nth-child="1"nth-of-type="1";div.hero:nth-child="1"nth-of-type="1"' },
  { id: 6, event: {}, elementsChain: 'a:attr__title="a > b c"nth-child="1"nth-of-type="1"' },
]

const el = (key: string, value: unknown, operator?: string) => ({ type: 'element', key, value, ...(operator ? { operator } : {}) })

/** [description, filters, expected ids]: PostHog's rules from posthog/hogql/property.py. */
export const ELEMENT_EXAMPLES: ReadonlyArray<readonly [string, unknown, number[]]> = [
  ['tag_name: any element of the chain', [el('tag_name', 'a')], [1, 3, 5, 6]],
  ['tag_name: a whole tag, not a prefix', [el('tag_name', 'butto')], []],
  ['tag_name: a class is not a tag', [el('tag_name', 'hero')], []],
  ['tag_name is_not: no chain matches', [el('tag_name', 'a', 'is_not')], [2, 4]],
  ['text exact', [el('text', 'Sign up')], [1]],
  ['text exact with quotes', [el('text', 'Save "draft"')], [2]],
  ['text icontains folds case', [el('text', 'sign UP', 'icontains')], [1, 3]],
  ['text not_icontains: no chain matches', [el('text', 'sign', 'not_icontains')], [2, 4, 5, 6]],
  ['text regex runs inside the quotes', [el('text', '.*up', 'regex')], [1]],
  ['text regex: ^ anchors at the chain start (PostHog splices it in)', [el('text', '^Sign', 'regex')], []],
  ['text is_set', [{ type: 'element', key: 'text', operator: 'is_set' }], [1, 2, 3]],
  ['text is_not_set', [{ type: 'element', key: 'text', operator: 'is_not_set' }], [4, 5, 6]],
  ['href exact (href or attr__href)', [el('href', '/signup')], [1]],
  ['href icontains', [el('href', 'EXAMPLE.com', 'icontains')], [3]],
  ['href regex', [el('href', 'https://.*', 'regex')], [3]],
  ['href list = any', [el('href', ['/docs', '/signup'])], [1, 5]],
  ['href is_not list = none', [el('href', ['/docs', '/signup'], 'is_not')], [2, 3, 4, 6]],
  ['selector tag.class', [el('selector', 'a.btn')], [1]],
  ['selector .class anywhere', [el('selector', '.hero')], [1, 5]],
  ['selector #id', [el('selector', '#save')], [2]],
  ['selector [id="..."]', [el('selector', 'button[id="save"]')], [2]],
  ['selector nth-child', [el('selector', 'a:nth-child(3)')], [3]],
  ['selector attribute value with a space and ">"', [el('selector', 'a[title="a > b c"]')], [6]],
  ['selector is_not', [el('selector', '.hero', 'is_not')], [2, 3, 4, 6]],
  // PostHog's regex wants the parent right after the child's attributes, read up to a space or `;`: row 1's class "btn btn-primary" stops it.
  ['selector parent > child', [el('selector', 'div > a')], [5]],
  ['selector with an element filter and an event filter', [el('tag_name', 'a'), { key: '$browser', value: 'Chrome' }], [1]],
  ['element OR event', { type: 'OR', values: [el('text', 'Save "draft"'), { key: '$browser', value: 'Chrome' }] }, [1, 2, 4]],
]

/** [description, filters, the path and words the ValidationError names]. */
export const ELEMENT_REFUSALS: ReadonlyArray<readonly [string, unknown, RegExp]> = [
  ['unknown key', [el('attr_class', 'btn')], /attr_class/],
  ['tag_name with icontains', [el('tag_name', 'a', 'icontains')], /tag_name/],
  ['selector with a pseudo-class', [el('selector', 'a:hover')], /selector/],
  ['text with gt', [el('text', '1', 'gt')], /text/],
  ['text regex that does not compile', [el('text', '(', 'regex')], /text/],
  ['text without a value', [{ type: 'element', key: 'text' }], /text/],
]

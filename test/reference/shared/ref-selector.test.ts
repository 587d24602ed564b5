/**
 * Worked examples for the reference's selector matching, each derived by hand
 * from PostHog's `Selector` and `build_selector_regex` (see ref-selector.ts).
 */
import { describe, expect, it } from 'vitest'
import { parseRefSelector, refSelectorMatches, refSelectorRegex } from './ref-selector.js'

// What follows every part: the allowlist, then the element's end, a `;`, or its attributes up to a `;` or white space.
const TAIL = String.raw`([-_a-zA-Z0-9\.:"= \[\]\(\),]*?)?($|;|:([^;^\s]*(;|$|\s)))`

describe('the reference parses selectors as PostHog', () => {
  it('innermost part first; the part before ">" is the one marked direct', () => {
    expect(parseRefSelector('div > a')).toEqual([
      { tag: 'a', classes: [], attributes: {}, directDescendant: false },
      { tag: 'div', classes: [], attributes: {}, directDescendant: true },
    ])
  })

  it('"> * >" is dropped, so "div > * > a" reads as "div a"', () => {
    expect(parseRefSelector('div > * > a')).toEqual(parseRefSelector('div a'))
  })

  it('a part keeps its tag and classes beside an attribute; #id and [id=] are attr_id', () => {
    expect(parseRefSelector('span.btn[href="/b"]')).toEqual([{ tag: 'span', classes: ['btn'], attributes: { href: '/b' }, directDescendant: false }])
    expect(parseRefSelector("button#save[id='save']:nth-child(2)")).toEqual([
      { tag: 'button', classes: [], attributes: { attr_id: 'save', 'nth-child': '2' }, directDescendant: false },
    ])
  })
})

describe('build_selector_regex', () => {
  it('a tag', () => {
    expect(refSelectorRegex('a')).toBe(`(^|;)a${TAIL}`)
  })

  it('parent > child: the child first, ".*" after the parent', () => {
    expect(refSelectorRegex('div > a')).toBe(`(^|;)a${TAIL}div${TAIL}.*`)
  })

  it('classes sorted, each after ".*?"; attributes sorted by key', () => {
    expect(refSelectorRegex('.hero.btn')).toBe(String.raw`(^|;).*?\.btn\..*?hero` + TAIL)
    expect(refSelectorRegex('span.btn[href="/b"]:nth-child(1)')).toBe(String.raw`(^|;)span.*?\.btn.*?href="/b".*?nth-child="1".*?` + TAIL)
  })

  it('"*" adds nothing; a quote in a value is written as the chain writes it', () => {
    expect(refSelectorRegex('*.x-1')).toBe(String.raw`(^|;).*?\.x-1` + TAIL)
    expect(refSelectorRegex(`[title='say "hi"']`)).toBe(String.raw`(^|;).*?title="say \\"hi\\"".*?` + TAIL)
  })
})

describe('which chains a selector selects', () => {
  const cases: ReadonlyArray<readonly [string, string, string, boolean]> = [
    ['a class is not a tag', 'a', 'span.a:nth-child="1"', false],
    ['a tag anywhere in the chain', 'a', 'span:nth-child="1";a:href="/a"nth-child="2"', true],
    // After "a" the allowlist takes "bbr", then ":" starts the attributes.
    ['the tail lets "a" select an abbr (PostHog quirk)', 'a', 'abbr:nth-child="1"', true],
    ['a class in any element', '.hero', 'a.btn:nth-child="0";div.hero:nth-child="1"', true],
    ['classes in one element', '.btn.hero', 'a.btn.hero:nth-child="0"', true],
    ['nth-child is the value written', 'a:nth-child(2)', 'a:nth-child="1"nth-of-type="0"', false],
    ['#id reads attr_id', '#save', 'button:attr__id="save"attr_id="save"nth-child="1"', true],
    ['parent > child', 'div > a', 'a:nth-child="1";div:nth-child="1"', true],
    // a's tail ends at its ";", so the next element must be the div: a space is a parent, as ">" is.
    ['a descendant two levels up is not found', 'div a', 'a:nth-child="1";span:nth-child="1";div:nth-child="1"', false],
    // The allowlist takes `:text="U p"` up to the ";".
    ['text with a space, no "/" before it', 'div > a', 'a:nth-child="0"text="U p";div:nth-child="1"', true],
    // "/" stops the allowlist, and the attributes branch stops at the space in the text.
    ['an href before a text with a space hides the parent', 'div > a', 'a:href="/a"nth-child="0"text="U p";div:nth-child="1"', false],
    ['an attribute with tag and class', 'span.btn[href="/b"]', 'span.btn:href="/b"nth-child="0"', true],
    // "> * >" is cut out of the text before parsing: the div must be the parent, not a grandparent.
    ['"div > * > a" finds a div parent', 'div > * > a', 'a:nth-child="1";div:nth-child="1"', true],
    ['"div > * > a" misses a div grandparent', 'div > * > a', 'a:nth-child="1";span:nth-child="1";div:nth-child="1"', false],
    // Split at spaces only: "div>a" is one part whose tag no element has.
    ['"div>a" without spaces selects nothing', 'div>a', 'a:nth-child="1";div:nth-child="1"', false],
  ]
  it.each(cases)('%s: %s in %s', (_, selector, chain, expected) => {
    expect(refSelectorMatches(selector, chain)).toBe(expected)
  })
})

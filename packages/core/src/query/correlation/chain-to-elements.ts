/** One element of an autocapture chain as PostHog's `ElementSerializer` shows it. */
export interface SerializedElement {
  event: null
  text: string | null
  tag_name: string | null
  attr_class: string[] | null
  href: string | null
  attr_id: string | null
  nth_child: number | null
  nth_of_type: number | null
  attributes: Record<string, string>
  order: number
}

// PostHog's regexes (posthog/models/element/element.py).
const SPLIT_CHAIN = /(?:[^\s;"]|"(?:\\.|[^"])*")+/g
const SPLIT_CLASS_ATTRIBUTES = /(.*?)($|:([a-zA-Z\-_0-9]*=.*))/
const PARSE_ATTRIBUTES = /((.*?)="(.*?[^\\])")/gm

/**
 * PostHog's `chain_to_elements`: `tag.class1.class2:key="value"...` per
 * element, elements split on `;` outside quotes. Only for display: the
 * correlation rows count the chain's text.
 */
export function chainToElements(chain: string): SerializedElement[] {
  return [...chain.matchAll(SPLIT_CHAIN)].map((m, order) => {
    const el: SerializedElement = { event: null, text: null, tag_name: null, attr_class: null, href: null, attr_id: null, nth_child: null, nth_of_type: null, attributes: {}, order }
    const split = SPLIT_CLASS_ATTRIBUTES.exec(m[0])!
    if (split[1]) {
      const [tag, ...classes] = split[1].split('.')
      el.tag_name = tag!
      if (split[1].includes('.')) el.attr_class = classes.filter((c) => c !== '')
    }
    for (const a of (split[3] ?? '').matchAll(PARSE_ATTRIBUTES)) {
      const [, , key, value] = a
      if (key === 'href') el.href = value!
      else if (key === 'nth-child') el.nth_child = parseInt(value!, 10)
      else if (key === 'nth-of-type') el.nth_of_type = parseInt(value!, 10)
      else if (key === 'text') el.text = value!
      else if (key === 'attr_id') el.attr_id = value!
      else if (key) el.attributes[key] = value!
    }
    return el
  })
}

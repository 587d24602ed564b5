/** Attributes of `el`: strings set as attributes; `text` sets the text; `on*` functions become listeners. */
export type Attrs = Readonly<Record<string, string | number | boolean | undefined | ((event: Event) => void)>>

/**
 * Creates an element in `doc` (the host element's own document, so views
 * work in frames and in a test DOM). Children are nodes or text, never HTML:
 * names and breakdown values come from captured events.
 */
export function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, attrs: Attrs = {}, ...children: Array<Node | string | null | undefined>): HTMLElementTagNameMap[K] {
  const node = doc.createElement(tag)
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue
    if (typeof value === 'function') node.addEventListener(key.slice(2), value)
    else if (key === 'text') node.textContent = String(value)
    else node.setAttribute(key, value === true ? '' : String(value))
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child)
  return node
}

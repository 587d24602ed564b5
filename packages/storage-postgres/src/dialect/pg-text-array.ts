/**
 * Parses Postgres's text form of an array (`{a,"b c",NULL}`, `{{1,2},{3,4}}`)
 * into JS arrays, nested as the dimensions are, converting each non-null
 * element with `parseElement`. The bounds prefix Postgres writes when an
 * array does not start at 1 (`[0:1]={a,b}`) is dropped.
 *
 * Assumes `,` between elements: true of every type except `box`.
 */
export function parsePgArray(text: string, parseElement: (text: string) => unknown): unknown[] {
  const start = text.startsWith('[') ? text.indexOf('=') + 1 : 0
  const parser = new ArrayParser(text, start, parseElement)
  const array = parser.array()
  parser.end()
  return array
}

class ArrayParser {
  readonly #text: string
  readonly #parseElement: (text: string) => unknown
  #at: number

  constructor(text: string, at: number, parseElement: (text: string) => unknown) {
    this.#text = text
    this.#at = at
    this.#parseElement = parseElement
  }

  array(): unknown[] {
    this.#expect('{')
    const items: unknown[] = []
    if (this.#peek() === '}') {
      this.#at++
      return items
    }

    for (;;) {
      items.push(this.#item())
      const next = this.#peek()
      this.#at++
      if (next === '}') return items
      if (next !== ',') this.#fail()
    }
  }

  end(): void {
    if (this.#at !== this.#text.length) this.#fail()
  }

  #item(): unknown {
    const first = this.#peek()
    if (first === '{') return this.array()
    if (first === '"') return this.#parseElement(this.#quoted())

    const end = this.#unquotedEnd()
    const raw = this.#text.slice(this.#at, end)
    this.#at = end
    if (raw === '') this.#fail()
    // Only an unquoted NULL is null; the string "NULL" is written quoted.
    return raw.toUpperCase() === 'NULL' ? null : this.#parseElement(raw)
  }

  #quoted(): string {
    let value = ''
    this.#at++
    for (;;) {
      const char = this.#text[this.#at++]
      if (char === undefined) this.#fail()
      if (char === '"') return value
      value += char === '\\' ? (this.#text[this.#at++] ?? this.#fail()) : char
    }
  }

  #unquotedEnd(): number {
    let end = this.#at
    while (end < this.#text.length && this.#text[end] !== ',' && this.#text[end] !== '}') end++
    return end
  }

  #peek(): string | undefined {
    return this.#text[this.#at]
  }

  #expect(char: string): void {
    if (this.#peek() !== char) this.#fail()
    this.#at++
  }

  #fail(): never {
    throw new TypeError(`not a Postgres array literal: '${this.#text}' (at ${this.#at})`)
  }
}

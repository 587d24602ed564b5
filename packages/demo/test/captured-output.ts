import { Writable } from 'node:stream'

/** A stream standing in for stdout: keeps what a command prints and waits for a line of it. */
export class CapturedOutput extends Writable {
  text = ''
  #waiters: Array<() => void> = []

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += chunk.toString()
    for (const wake of this.#waiters.splice(0)) wake()
    done()
  }

  /** The first match of `pattern` in the output, as soon as it is printed. */
  async waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    for (;;) {
      const found = this.text.match(pattern)
      if (found) return found
      await new Promise<void>((resolve) => this.#waiters.push(resolve))
    }
  }
}

/**
 * Turns a printed `curl` line back into a fetch: the URL, `-X`, each `-H` and `-d`, with the
 * shell's single and double quotes removed, so a test sends exactly what a person would paste.
 */
export function curlToFetch(line: string): { url: string; init: RequestInit } {
  const words: string[] = []
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3] ?? '')
  if (words.shift() !== 'curl') throw new Error(`not a curl command: ${line}`)
  const headers: Record<string, string> = {}
  let method = 'GET'
  let body: string | undefined
  let url: string | undefined
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string
    if (word === '-s') continue
    else if (word === '-X') method = words[++i] as string
    else if (word === '-H') {
      const [name, ...value] = (words[++i] as string).split(':')
      headers[name as string] = value.join(':').trim()
    } else if (word === '-d') body = words[++i]
    else if (word.startsWith('http')) url = word
    else throw new Error(`unexpected curl word ${JSON.stringify(word)} in ${line}`)
  }
  if (url === undefined) throw new Error(`no URL in ${line}`)
  return { url, init: { method, headers, ...(body === undefined ? {} : { body }) } }
}

import { CSV_CONTENT_TYPE, csvLine } from './csv.js'

/** A table: its header, and its records made one at a time as they are written. */
export interface CsvTable {
  readonly header: ReadonlyArray<string>
  rows(): Iterable<ReadonlyArray<unknown>>
}

/** Text written per pull: a short stretch of work, then the event loop turns (as json-stream.ts does per element). */
const CHUNK_CHARS = 64 * 1024

const encoder = new TextEncoder()

/**
 * A 200 answer with `table` as CSV, written record by record as the client
 * reads it: a large analysis (core bounds answers to about 20 MB) neither
 * blocks the event loop for its whole rendering nor holds its whole text.
 * `filename` becomes an attachment's name, as PostHog's exported assets are
 * served.
 */
export function csvTableResponse(table: CsvTable, filename: string): Response {
  const records = table.rows()[Symbol.iterator]()
  let header: string | null = csvLine(table.header)
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      let text = header ?? ''
      header = null
      while (text.length < CHUNK_CHARS) {
        const next = records.next()
        if (next.done) {
          if (text !== '') controller.enqueue(encoder.encode(text))
          return controller.close()
        }
        text += csvLine(next.value)
      }
      controller.enqueue(encoder.encode(text))
    },
  })
  return new Response(stream, {
    status: 200,
    headers: { 'content-type': CSV_CONTENT_TYPE, 'content-disposition': `attachment; filename="${filename}"` },
  })
}

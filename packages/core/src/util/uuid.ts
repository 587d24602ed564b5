import { randomFillSync } from 'node:crypto'

// Random bytes drawn 4 KiB at a time: one system call per 409 ids instead of one each.
const pool = Buffer.alloc(4096)
let offset = pool.length

function random10(): Buffer {
  if (offset + 10 > pool.length) {
    randomFillSync(pool)
    offset = 0
  }
  offset += 10
  return pool.subarray(offset - 10, offset)
}

/**
 * A UUID version 7 (RFC 9562): 48 bits of milliseconds, then random bits.
 * PostHog's SDKs and server use v7 for events so that ids sort by time.
 */
export function uuidv7(ms: number = Date.now()): string {
  const bytes = Buffer.alloc(16)
  random10().copy(bytes, 6)
  let t = Math.max(0, Math.floor(ms))
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256
    t = Math.floor(t / 256)
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const isUuid = (text: string): boolean => UUID.test(text)

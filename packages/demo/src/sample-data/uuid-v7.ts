import type { Random } from '../random.js'

/** A UUIDv7-shaped session id (time-ordered, like posthog-js makes), drawn from the seeded source. */
export function uuidV7(at: number, random: Random): string {
  const time = at.toString(16).padStart(12, '0')
  const bits = random.hex(19)
  const variant = '89ab'[Number.parseInt(bits.charAt(3), 16) & 3] as string
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${bits.slice(0, 3)}-${variant}${bits.slice(4, 7)}-${bits.slice(7, 19)}`
}

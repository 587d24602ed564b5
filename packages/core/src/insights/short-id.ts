import { randomInt } from 'node:crypto'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/** Eight securely random letters and digits, as PostHog's `generate_short_id`. */
export function generateShortId(): string {
  let id = ''
  for (let i = 0; i < 8; i++) id += ALPHABET[randomInt(ALPHABET.length)]
  return id
}

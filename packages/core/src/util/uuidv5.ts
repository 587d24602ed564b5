import { createHash } from 'node:crypto'

/** A UUID version 5 (SHA-1, RFC 9562) of `name` in the namespace `namespace`. */
export function uuidv5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex')
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest()
  hash[6] = (hash[6]! & 0x0f) | 0x50
  hash[8] = (hash[8]! & 0x3f) | 0x80
  const hex = hash.subarray(0, 16).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** PostHog's namespace for person uuids (nodejs/src/worker/ingestion/persons/person-uuid.ts). */
const PERSON_NAMESPACE = '932979b4-65c3-4424-8467-0b66ec27bc22'

/** The uuid PostHog gives the person first created for a distinct id: stable across processes. */
export const personUuidFor = (projectId: number, distinctId: string): string =>
  uuidv5(`${projectId}:${distinctId}`, PERSON_NAMESPACE)

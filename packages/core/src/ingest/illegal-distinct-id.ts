const quoted = (values: string[]) => values.flatMap((v) => [v, `'${v}'`, `"${v}"`])

const CASE_INSENSITIVE = new Set(
  quoted(['anonymous', 'guest', 'distinctid', 'distinct_id', 'id', 'not_authenticated', 'email', 'undefined', 'true', 'false']),
)
const CASE_SENSITIVE = new Set(quoted(['[object Object]', 'NaN', 'None', 'none', 'null', '0', 'undefined']))

/**
 * PostHog refuses to merge persons through these ids (person-merge-service.ts
 * `isDistinctIdIllegal`): placeholders that buggy clients send for everyone,
 * which would otherwise merge every user into one person.
 */
export function isDistinctIdIllegal(id: string): boolean {
  return id.trim() === '' || CASE_INSENSITIVE.has(id.toLowerCase()) || CASE_SENSITIVE.has(id)
}

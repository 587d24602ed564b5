/**
 * Text that every database can hold, as PostHog's `sanitizeJsonbValue`: U+0000
 * and unpaired UTF-16 surrogates become U+FFFD. Postgres text and jsonb refuse
 * both, and UTF-8 storage turns a lone surrogate into U+FFFD anyway, so an id
 * left as sent would not match itself once stored.
 */
export function sanitizeText(text: string): string {
  if (text.isWellFormed() && !text.includes('\u0000')) return text
  return text.toWellFormed().replaceAll('\u0000', '\uFFFD')
}

/** `sanitizeText` over every key and string of a JSON value; the same object when nothing changed. */
export function sanitizeJson<T>(value: T): T {
  if (typeof value === 'string') return sanitizeText(value) as T
  if (typeof value !== 'object' || value === null || value instanceof Date) return value
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const v = sanitizeJson(value[i])
      if (v !== value[i]) (out ??= [...value])[i] = v
    }
    return (out ?? value) as T
  }
  let out: Record<string, unknown> | undefined
  const source = value as Record<string, unknown>
  for (const key in source) {
    const k = sanitizeText(key)
    const v = sanitizeJson(source[key])
    if (k !== key || v !== source[key]) {
      out ??= { ...source }
      if (k !== key) delete out[key]
      out[k] = v
    }
  }
  return (out ?? value) as T
}

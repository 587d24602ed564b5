/** Tags as PostHog stores them (`tagify`): trimmed, lower-cased, each once, in the order first given. */
export const normalizeTags = (tags: ReadonlyArray<string>): string[] => [...new Set(tags.map((t) => t.trim().toLowerCase()))]

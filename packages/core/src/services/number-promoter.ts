/** The most (project, key) pairs counted at once: keys come from requests, so the count is bounded. */
const MAX_COUNTED = 4096

/**
 * The automatic promotion of numeric event properties (option
 * `properties.promoteNumbersAfter`): counts, per project and key, the
 * analyses that read the property as a number from the JSON, and once
 * `after` of them did, calls `promote` (which promotes it when its
 * definition says `Numeric` and a slot is free). One attempt per key and
 * engine, whatever its outcome. Promotions run beside the analysis that
 * triggered it, never inside it; `settled` waits for a project's.
 */
export class NumberPromoter {
  readonly #counts = new Map<string, number>()
  readonly #pending = new Set<{ readonly projectId: number; readonly done: Promise<void> }>()

  constructor(
    private readonly after: number,
    private readonly promote: (projectId: number, key: string) => Promise<void>,
  ) {}

  /** The teller of one analysis of project `projectId`: a key it reads several times counts once. */
  analysis(projectId: number): (key: string) => void {
    const seen = new Set<string>()
    return (key) => {
      if (seen.has(key)) return
      seen.add(key)
      const id = `${projectId}:${key}`
      const before = this.#counts.get(id)
      if (before === undefined && this.#counts.size >= MAX_COUNTED) return
      const count = (before ?? 0) + 1
      this.#counts.set(id, count)
      if (count !== this.after) return
      // A failed or refused promotion (no free slot, the engine closing) changes no answer: reads stay on the JSON.
      const entry = { projectId, done: this.promote(projectId, key).catch(() => {}) }
      this.#pending.add(entry)
      void entry.done.finally(() => this.#pending.delete(entry))
    }
  }

  /** Resolves once the promotions started so far for project `projectId` have ended. */
  async settled(projectId: number): Promise<void> {
    await Promise.all([...this.#pending].filter((p) => p.projectId === projectId).map((p) => p.done))
  }
}

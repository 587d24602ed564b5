/**
 * Overrides a project's captures write before a background squash. Reads
 * join the overrides to every event, so they must stay few; a squash scans
 * the project's events, so it must not run for every merge.
 */
export const SQUASH_THRESHOLD = 1000

/**
 * When to squash in the background: after captures of this engine wrote
 * `threshold` overrides for a project since its last squash. Counting in
 * memory costs nothing per capture; another process's overrides are counted
 * by that process.
 */
export class OverrideSquasher {
  readonly #written = new Map<number, number>()
  readonly #threshold: number
  readonly #squash: (projectId: number) => Promise<unknown>

  /** `squash` folds every override of a project (`squashAllPersonOverrides`); it runs after `threshold` overrides. */
  constructor(threshold: number, squash: (projectId: number) => Promise<unknown>) {
    this.#threshold = threshold
    this.#squash = squash
  }

  /**
   * Notes overrides a committed write added; once the project's count
   * reaches the threshold, starts `squash`, which queues behind the
   * project's writes (so `close` waits for it). A failed squash only leaves the overrides in
   * place, which reads stay correct with: the count is kept and the next
   * write tries again.
   */
  added(projectId: number, count: number): void {
    if (count === 0) return
    const total = (this.#written.get(projectId) ?? 0) + count
    if (total < this.#threshold) {
      this.#written.set(projectId, total)
      return
    }
    this.#written.delete(projectId)
    this.#squash(projectId).catch(() => this.#written.set(projectId, (this.#written.get(projectId) ?? 0) + total))
  }
}

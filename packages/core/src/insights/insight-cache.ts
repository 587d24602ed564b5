import { sql, type Kysely } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { projectWrites, withWriteRetries } from '../db/write-retries.js'
import type { SightlineDatabase } from '../storage.js'
import { formatTimestamp } from '../time/timestamp.js'

type Db = Kysely<SightlineDatabase>

const iso = (ms: number | null): string | null => (ms === null ? null : formatTimestamp(ms * 1000))
const ms = (text: string | null): number | null => (text === null ? null : Date.parse(text))

/** A stored result, with the instants that decide whether it may still answer. */
export interface CacheEntry {
  readonly result: unknown
  /** ISO 8601 UTC. */
  readonly lastRefresh: string
  readonly nextAllowedClientRefresh: string
  /** Epoch ms; null: never. */
  readonly staleAtMs: number | null
  readonly lazyStaleAtMs: number | null
  readonly expiresAtMs: number | null
}

/** What a computation claims before it starts: the events and person changes that make its result stale. */
export interface CacheClaim {
  /** Epoch microseconds; null: unbounded on that side. */
  readonly rangeFromMicros: number | null
  readonly rangeToMicros: number | null
  readonly onMerge: boolean
  readonly onPersonChange: boolean
}

/** The stored result under `key`, or null when nothing was computed there (or it was invalidated). */
export async function readCacheEntry(db: Db, projectId: number, key: string): Promise<CacheEntry | null> {
  const row = await runStorage('read insight cache', () =>
    db.selectFrom('insight_cache').selectAll().where('project_id', '=', projectId).where('cache_key', '=', key).executeTakeFirst(),
  )
  if (!row || row.last_refresh === null || row.next_allowed_client_refresh === null) return null
  return {
    result: row.result,
    lastRefresh: row.last_refresh,
    nextAllowedClientRefresh: row.next_allowed_client_refresh,
    staleAtMs: ms(row.stale_at),
    lazyStaleAtMs: ms(row.lazy_stale_at),
    expiresAtMs: ms(row.expires_at),
  }
}

/**
 * Marks `key` as being computed by `token` with the claim's invalidation
 * range (creating the row, or keeping its previous result until the new one
 * is stored). A capture that would make the new result stale deletes the
 * row, and with it the claim: `storeCacheEntry` then stores nothing.
 */
export function claimCacheEntry(ctx: EngineContext, projectId: number, key: string, token: string, claim: CacheClaim): Promise<void> {
  const values = {
    claim: token,
    range_from: claim.rangeFromMicros === null ? null : formatTimestamp(claim.rangeFromMicros),
    range_to: claim.rangeToMicros === null ? null : formatTimestamp(claim.rangeToMicros),
    on_merge: claim.onMerge,
    on_person_change: claim.onPersonChange,
  }
  return withWriteRetries(ctx, projectWrites(projectId), 'claim insight cache', async () => {
    await ctx.db
      .insertInto('insight_cache')
      .values({ project_id: projectId, cache_key: key, ...values })
      .onConflict((oc) => oc.columns(['project_id', 'cache_key']).doUpdateSet(values))
      .execute()
  })
}

/**
 * Stores a result computed under `token`'s claim. Returns false (storing
 * nothing) when the claim is gone: a capture invalidated it while the
 * result was computed, or a later computation claimed the key. Rows of the
 * project that expired before `nowMs` are removed on the way.
 */
export function storeCacheEntry(ctx: EngineContext, projectId: number, key: string, token: string, entry: CacheEntry, nowMs: number): Promise<boolean> {
  return withWriteRetries(ctx, projectWrites(projectId), 'store insight cache', async () => {
    const stored = await ctx.db
      .updateTable('insight_cache')
      .set({
        claim: null,
        result: JSON.stringify(entry.result),
        last_refresh: entry.lastRefresh,
        next_allowed_client_refresh: entry.nextAllowedClientRefresh,
        stale_at: iso(entry.staleAtMs),
        lazy_stale_at: iso(entry.lazyStaleAtMs),
        expires_at: iso(entry.expiresAtMs),
      })
      .where('project_id', '=', projectId)
      .where('cache_key', '=', key)
      .where('claim', '=', token)
      .returning('cache_key')
      .execute()
    await ctx.db
      .deleteFrom('insight_cache')
      .where('project_id', '=', projectId)
      .where('claim', 'is', null)
      .where(sql<boolean>`expires_at <= cast(${iso(nowMs)} as timestamptz)`)
      .execute()
    return stored.length > 0
  })
}

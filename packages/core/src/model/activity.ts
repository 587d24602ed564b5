/** One field-level change, in PostHog's ActivityLog `detail.changes` shape. */
export interface ActivityChange {
  /** The scope of the changed item ('Insight', 'Plugin', ...). */
  readonly type: string
  readonly action: 'created' | 'changed' | 'deleted'
  readonly field?: string
  readonly before?: unknown
  readonly after?: unknown
}

/** An entry of the activity log. */
export interface ActivityEntry {
  readonly id: number
  readonly organizationId: string
  readonly projectId: number | null
  /** The acting user, or null for changes made by the host itself. */
  readonly userId: number | null
  readonly scope: string
  readonly itemId: string
  /** 'created', 'updated', 'deleted', or another verb ('upgraded', 'source_updated', ...). */
  readonly activity: string
  readonly detail: {
    readonly name: string | null
    readonly changes: ReadonlyArray<ActivityChange>
    readonly [key: string]: unknown
  }
  readonly createdAt: string
}

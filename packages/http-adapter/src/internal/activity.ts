import type { ActivityEntry, Page, Sightline } from '@sightline/core'
import type { RouteContext } from '../route.js'
import { activityToWire, type ActivityUserSummary } from '../wire/activity.js'
import { activityEnvelope, activityPageRequest, type ActivityPageRequest } from './pagination.js'
import { respond } from './respond.js'

/** `limit` and `page` of this activity request, validated. */
export const activityPageOf = (ctx: RouteContext<unknown>): ActivityPageRequest => activityPageRequest(ctx.query, ctx.options.maxPageSize)

/** Who acted, for each user id of the entries; a user that no longer exists shows as null. */
async function actors(sightline: Sightline, entries: ReadonlyArray<ActivityEntry>): Promise<Map<number, ActivityUserSummary>> {
  const ids = [...new Set(entries.flatMap((e) => (e.userId === null ? [] : [e.userId])))]
  const users = new Map<number, ActivityUserSummary>()
  for (const id of ids) {
    try {
      const user = await sightline.users.get(id)
      users.set(id, { first_name: user.firstName, email: user.email })
    } catch (error) {
      // Only a missing user is left out; an outage stays an error.
      if ((error as { _tag?: unknown })._tag !== 'NotFoundError') throw error
    }
  }
  return users
}

/** One page of the activity log in PostHog's activity envelope. */
export async function respondActivity(ctx: RouteContext<unknown>, page: ActivityPageRequest, result: Page<ActivityEntry>): Promise<Response> {
  const users = await actors(ctx.sightline, result.results)
  return respond(ctx, activityEnvelope(ctx.url, page, result.count, result.results.map((e) => activityToWire(e, users))))
}

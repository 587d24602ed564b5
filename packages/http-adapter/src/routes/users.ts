import { principalOf } from '../access.js'
import { respond } from '../internal/respond.js'
import { endpoint } from '../route.js'
import { Me, meToWire } from '../wire/user.js'

export const me = endpoint({
  summary: 'The user of the personal API key, with its organizations.',
  tag: 'users',
  // PostHog asks for `user:read`; core has no such scope, so any valid key may read its own user.
  access: 'authenticated',
  responses: { 200: Me },
  async handle(ctx) {
    const principal = principalOf(ctx)
    const organizations = await ctx.sightline.organizations.list({ userId: principal.user.id })
    return respond(ctx, meToWire(principal.user, organizations))
  },
})

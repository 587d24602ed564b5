import { type Random, weighted } from '../../random.js'

const BLOG_SLUGS = [
  'what-is-product-analytics', 'funnels-101', 'retention-curves', 'north-star-metric',
  'ab-testing-guide', 'cohort-analysis',
]
const DOC_TOPICS = ['getting-started', 'capture', 'identify', 'groups', 'funnels', 'retention', 'api']

/** Pages seen before signing in; a few paths carry a slug, as real sites do. */
export const marketingPath = weighted<(random: Random) => string>([
  [() => '/', 30], [() => '/pricing', 14], [() => '/features', 10], [() => '/blog', 6],
  [(r) => `/blog/${r.pick(BLOG_SLUGS)}`, 12], [() => '/docs', 8], [(r) => `/docs/${r.pick(DOC_TOPICS)}`, 9],
  [() => '/customers', 4], [() => '/about', 3], [() => '/changelog', 4],
])

/** Pages of the product itself, seen once signed in. */
export const appPath = weighted<(random: Random) => string>([
  [() => '/dashboard', 24], [() => '/insights', 12], [(r) => `/insights/${r.int(1, 300)}`, 12], [() => '/events', 8],
  [() => '/persons', 6], [() => '/funnels', 7], [() => '/retention', 4], [() => '/settings', 5], [() => '/billing', 3],
  [() => '/team', 3], [() => '/integrations', 3], [() => '/docs', 4], [() => '/pricing', 3], [() => '/', 6],
])

/** Texts of the elements clicked, by the kind of page. */
export const MARKETING_CLICKS = ['Get started', 'Sign up', 'Pricing', 'Learn more', 'Book a demo', 'Docs', 'Log in', 'Read more']
export const APP_CLICKS = [
  'Save', 'New insight', 'Add filter', 'Share', 'Export', 'Invite', 'Apply', 'Cancel',
  'Create dashboard', 'Run query',
]

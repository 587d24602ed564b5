import { weighted } from '../../random.js'

export const referringDomain = weighted([
  ['$direct', 44], ['www.google.com', 30], ['www.bing.com', 3], ['duckduckgo.com', 2], ['news.ycombinator.com', 5],
  ['t.co', 4], ['www.linkedin.com', 4], ['github.com', 4], ['www.reddit.com', 3], ['www.producthunt.com', 1],
] as const)

/** Per referring domain: the UTM source and medium of tagged links, and the share of landings that carry them. */
export const UTM_FOR_DOMAIN: Record<string, readonly [source: string, medium: string, chance: number]> = {
  'www.google.com': ['google', 'cpc', 0.3],
  'www.bing.com': ['bing', 'cpc', 0.3],
  't.co': ['twitter', 'social', 0.5],
  'www.linkedin.com': ['linkedin', 'social', 0.5],
  'www.producthunt.com': ['producthunt', 'referral', 0.8],
  $direct: ['newsletter', 'email', 0.08],
}

export const CAMPAIGNS = ['spring_launch', 'brand', 'retargeting', 'webinar', 'product_update']

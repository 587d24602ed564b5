import { Random, deriveSeed } from '../../random.js'

const INDUSTRIES = ['SaaS', 'Fintech', 'E-commerce', 'Healthcare', 'Education', 'Media', 'Gaming', 'Logistics']
const COMPANY_PREFIXES = [
  'Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Wonka', 'Soylent', 'Cyberdyne',
  'Tyrell', 'Aperture', 'Vandelay', 'Oscorp', 'Massive', 'Nakatomi',
]
const COMPANY_SUFFIXES = ['Labs', 'Inc', 'Systems', 'Group', 'Analytics', 'Cloud', 'AI', 'Health', 'Pay', 'Logistics']

/** A unique name per 1-based company number: "Acme Labs", ..., then "Acme Labs 2" once all pairs are used. */
export function companyName(company: number): string {
  const prefix = COMPANY_PREFIXES[(company - 1) % COMPANY_PREFIXES.length] as string
  const round = Math.floor((company - 1) / COMPANY_PREFIXES.length)
  const suffix = COMPANY_SUFFIXES[round % COMPANY_SUFFIXES.length] as string
  const lap = Math.floor(round / COMPANY_SUFFIXES.length)
  return lap === 0 ? `${prefix} ${suffix}` : `${prefix} ${suffix} ${lap + 1}`
}

/** The email domain of the company's people. */
export function companyDomain(company: number): string {
  return `${companyName(company).toLowerCase().replace(/[^a-z0-9]/g, '')}.com`
}

/** Depends on the seed and the company only, not on who signed up first. */
export function companyProperties(seed: number, company: number): Record<string, unknown> {
  const random = new Random(deriveSeed(seed, 3, company))
  return {
    name: companyName(company),
    industry: random.pick(INDUSTRIES),
    seats: Math.min(10_000, Math.round(random.pareto(5, 1.1))),
  }
}

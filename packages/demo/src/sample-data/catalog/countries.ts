import { weighted } from '../../random.js'

export const country = weighted([
  ['US', 34], ['IN', 9], ['DE', 8], ['GB', 8], ['BR', 6], ['FR', 5], ['CA', 4], ['NL', 3], ['ES', 3], ['IT', 3],
  ['AU', 3], ['JP', 3], ['PL', 2], ['SE', 2], ['MX', 2], ['NG', 1], ['SG', 1], ['ZA', 1], ['KR', 1], ['IE', 1],
] as const)

const EURO_COUNTRIES = new Set(['DE', 'FR', 'NL', 'ES', 'IT', 'IE'])

/** The currency a person from `countryCode` pays in. */
export function currencyOf(countryCode: string): string {
  return countryCode === 'GB' ? 'GBP' : EURO_COUNTRIES.has(countryCode) ? 'EUR' : 'USD'
}

import type { CohortNode } from './cohort-criteria.js'

/**
 * PostHog's `check_negation_clause` over a cohort's criteria: true when a
 * negated criterion is not paired, in some AND group, with a positive one,
 * which PostHog's cohort query refuses ("Negations must be paired with a
 * positive filter."), so the calculation fails and the cohort holds no one.
 * A group's flags are those of its criteria and, recursively, its groups; an
 * AND group holding both kinds settles its negations (no negation pending,
 * one positive); an OR group passes both flags up.
 */
export function hasPendingNegation(node: CohortNode): boolean {
  return flags(node).negation
}

function flags(node: CohortNode): { negation: boolean; primary: boolean } {
  if (node.kind !== 'group') return { negation: node.negated, primary: !node.negated }
  let negation = false
  let primary = false
  for (const child of node.values) {
    const f = flags(child)
    negation ||= f.negation
    primary ||= f.primary
  }
  return node.type === 'AND' && negation && primary ? { negation: false, primary: true } : { negation, primary }
}

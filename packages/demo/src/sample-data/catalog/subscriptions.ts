import { weighted } from '../../random.js'

export type Plan = 'free' | 'starter' | 'pro' | 'enterprise'

export const PRICES: Record<Plan, number> = { free: 0, starter: 19.99, pro: 49.99, enterprise: 499 }
export const ADD_ON_PRICES = [4.99, 9.99, 19.99, 29.99, 99]
export const signupPlan = weighted<Plan>([['free', 70], ['starter', 15], ['pro', 11], ['enterprise', 4]])
export const upgradePlan = weighted<Plan>([['starter', 55], ['pro', 38], ['enterprise', 7]])
export const CANCEL_REASONS = ['too_expensive', 'missing_features', 'switched_tool', 'no_longer_needed']

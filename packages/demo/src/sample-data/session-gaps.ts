import { MINUTE } from './time.js'

// Gaps inside a session stay well under the 30 minutes of idleness that end a session.

export const MAX_GAP = 20 * MINUTE
export const ACTION_GAP = 40_000
export const PAGELEAVE_GAP = 30_000
export const NAVIGATION_GAP = 3_000
export const SESSION_IDLE = 30 * MINUTE

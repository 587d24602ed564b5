// Per-visit rates. Tuned so that, at the default size, $pageview is about half of all events,
// $autocapture about 16% and purchase about 1.8% (asserted by the tests). The planner budgets
// with the same numbers the session writer draws with, so they live in one place.

/** Probability that leaving a page is recorded (closing the tab often is not). */
export const P_PAGELEAVE = 0.5
export const AUTOCAPTURE_PER_VISIT = 0.34
/** Signed-in visits only: anonymous visitors browse the marketing site and cannot use the product. */
export const FEATURES_PER_VISIT = 0.2
export const P_INVITE = 0.02
export const P_PURCHASE = 0.069
export const P_CANCEL = 0.006
export const ANONYMOUS_EVENTS_PER_VISIT = 1 + P_PAGELEAVE + AUTOCAPTURE_PER_VISIT
export const SIGNED_IN_EVENTS_PER_VISIT =
  ANONYMOUS_EVENTS_PER_VISIT + FEATURES_PER_VISIT + P_INVITE + P_PURCHASE + P_CANCEL

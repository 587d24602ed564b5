/** PostHog's breakdown value for a missing, null or empty property (`BREAKDOWN_NULL_STRING_LABEL`). */
export const NULL_MARKER = '$$_posthog_breakdown_null_$$'
/** PostHog's breakdown value of the row that folds every value past the limit (`BREAKDOWN_OTHER_STRING_LABEL`). */
export const OTHER_MARKER = '$$_posthog_breakdown_other_$$'
/** A histogram breakdown's value for a row whose property is not a number in any bin (PostHog's multiIf fallback). */
export const NO_BIN = '["",""]'

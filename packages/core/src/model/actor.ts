/**
 * Who makes a change: recorded as `created_by` / `last_modified_by` and in the
 * activity log. Optional everywhere: a host's own scripts act as nobody.
 */
export interface Actor {
  readonly userId: number
}

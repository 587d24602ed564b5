/**
 * One generated event, in the shape `sightline.capture(projectId, events)` accepts (its
 * `CaptureInput`); declared here structurally so the generator does not depend on core. The
 * timestamp is always set; the uuid never is (the engine assigns it).
 */
export interface SampleEvent {
  event: string
  distinctId: string
  /** ISO 8601, UTC, millisecond precision. */
  timestamp: string
  properties: Record<string, unknown>
}

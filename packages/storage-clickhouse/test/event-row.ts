import type { EventRow } from '@sightline/core/storage'

/**
 * An `events` row as capture shapes it, for the adapter's own tests: project 1, event `e`, distinct id `d`,
 * empty properties, with `fields` over those. Asserted rather than annotated: the row's columns follow
 * core's EventRow as its layout changes.
 */
export const eventRow = (uuid: string, fields: Partial<Record<keyof EventRow, unknown>> = {}): EventRow =>
  ({
    uuid,
    project_id: 1,
    event: 'e',
    distinct_id: 'd',
    timestamp: '2026-01-01T10:00:00.000001Z',
    properties: '{}',
    group_0: '',
    group_1: '',
    group_2: '',
    group_3: '',
    group_4: '',
    session_id: null,
    inserted_at: '2026-01-01T10:00:01.000000Z',
    elements_chain: '',
    person_id: null,
    ...fields,
  }) as EventRow

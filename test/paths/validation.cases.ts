/**
 * Bad paths parameters are a ValidationError naming the field, before any
 * SQL runs; regexes that a database would refuse never reach it as a 500.
 */
import { expect, test } from 'vitest'
import { NotFoundError, ValidationError, type PathPersonsParams, type PathsParams, type Sightline } from '@sightline/core'
import type { Opened } from './support.js'

// Parameters as an untyped caller (the HTTP adapter) passes them: the decoder checks them, not the compiler.
const runPaths = (sightline: Sightline, projectId: number, params: unknown) => sightline.query.paths(projectId, params as PathsParams)
const pathActors = (sightline: Sightline, projectId: number, params: unknown, page: { limit: number; offset: number }) =>
  sightline.query.pathPersons(projectId, params as PathPersonsParams, page)

const BAD: ReadonlyArray<{ params: Record<string, unknown>; path: ReadonlyArray<string | number> }> = [
  { params: { include_event_types: ['$foo'] }, path: ['include_event_types', 0] },
  { params: { include_event_types: '$pageview' }, path: ['include_event_types'] },
  { params: { path_type: 'screens' }, path: ['path_type'] },
  { params: { local_path_cleaning_filters: [{ alias: 'x', regex: '(' }] }, path: ['local_path_cleaning_filters', 0, 'regex'] },
  { params: { local_path_cleaning_filters: [{ alias: 'x', regex: '(?=a)' }] }, path: ['local_path_cleaning_filters', 0, 'regex'] },
  { params: { local_path_cleaning_filters: [{ alias: 'x', regex: '' }] }, path: ['local_path_cleaning_filters', 0, 'regex'] },
  // Regexes DuckDB (RE2) or Postgres refuses, or that the two read differently: a 400, never a 500 or two answers.
  ...['\\p{L}', 'a{1,300}', '\\u00e9', '\\cA', '[\\b]', '\\b', '\\B', '(?<n>a)', '[^]', '(a|)', '[[:alpha:]]', '\\1', 'a{2,1}', ')', 'a+?'].map((regex) => ({
    params: { path_replacements: false, local_path_cleaning_filters: [{ alias: '#', regex }] },
    path: ['local_path_cleaning_filters', 0, 'regex'],
  })),
  { params: { local_path_cleaning_filters: [{ alias: 3, regex: 'a' }] }, path: ['local_path_cleaning_filters', 0, 'alias'] },
  { params: { local_path_cleaning_filters: {} }, path: ['local_path_cleaning_filters'] },
  { params: { step_limit: -1 }, path: ['step_limit'] },
  { params: { step_limit: 'many' }, path: ['step_limit'] },
  { params: { edge_limit: 1.5 }, path: ['edge_limit'] },
  { params: { min_edge_weight: -2 }, path: ['min_edge_weight'] },
  { params: { path_groupings: [{}] }, path: ['path_groupings', 0] },
  { params: { exclude_events: 'a,b' }, path: ['exclude_events'] },
  { params: { start_point: { url: '/' } }, path: ['start_point'] },
  { params: { path_replacements: 'yes' }, path: ['path_replacements'] },
  { params: { funnel_paths: 'funnel_path_sideways', funnel_filter: {} }, path: ['funnel_paths'] },
  { params: { funnel_paths: 'funnel_path_after_step', funnel_filter: {} }, path: ['funnel_filter', 'funnel_step'] },
  { params: { insight: 'TRENDS' }, path: ['insight'] },
  { params: { aggregation_group_type_index: 7 }, path: ['aggregation_group_type_index'] },
  { params: { include_event_types: ['hogql'], paths_hogql_expression: 'sleep(1)' }, path: ['paths_hogql_expression'] },
  { params: { date_from: 'last tuesday' }, path: ['date_from'] },
  { params: { properties: '[{"key": ' }, path: ['properties'] },
]

/** The validation cases on one target's engine (the first example's data at `basicProject`). */
export function validationCases(opened: () => Opened): void {
  test('each bad field is named', async () => {
    const { engine, basicProject } = opened()
    for (const c of BAD) {
      const error = await runPaths(engine.sightline, basicProject, c.params).catch((e: unknown) => e)
      expect(error, JSON.stringify(c.params)).toBeInstanceOf(ValidationError)
      expect((error as ValidationError).issues[0]!.path, JSON.stringify(c.params)).toEqual(c.path)
      const actors = await pathActors(engine.sightline, basicProject, c.params, { limit: 10, offset: 0 }).catch((e: unknown) => e)
      expect(actors, JSON.stringify(c.params)).toBeInstanceOf(ValidationError)
    }
  })

  test('persons keys and pages', async () => {
    const { engine, basicProject } = opened()
    for (const [params, page, path] of [
      [{ path_start_key: { a: 1 } }, { limit: 10, offset: 0 }, ['path_start_key']],
      [{}, { limit: -1, offset: 0 }, ['limit']],
      [{}, { limit: 10, offset: 0.5 }, ['offset']],
    ] as const) {
      const error = await pathActors(engine.sightline, basicProject, params, page).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ValidationError)
      expect((error as ValidationError).issues[0]!.path).toEqual(path)
    }
  })

  test('an unknown project is NotFoundError', async () => {
    const { engine, basicProject } = opened()
    await expect(runPaths(engine.sightline, 999_999, {})).rejects.toBeInstanceOf(NotFoundError)
  })

  test('GET-style values: JSON text, numbers for names, text booleans', async () => {
    const { engine, basicProject } = opened()
    const get = await runPaths(engine.sightline, basicProject, { include_event_types: '["$pageview"]', step_limit: '2', path_replacements: 'false', filter_test_accounts: 'true' })
    expect(get.result.map((e) => [e.source, e.target, e.value])).toEqual([['1_/', '2_/pricing', 2], ['1_/pricing', '2_/', 1]])
    // A node named 404 arrives from a query string as a number and still finds nothing.
    expect((await runPaths(engine.sightline, basicProject, { start_point: 404 })).result).toEqual([])
  })

  test('portable regexes run alike everywhere', async () => {
    const { engine, basicProject } = opened()
    const rules = [{ alias: '#', regex: '[c-i]{2,}|\\d+' }, { alias: '*', regex: '#\\w+$' }]
    const result = (await runPaths(engine.sightline, basicProject, { local_path_cleaning_filters: rules })).result
    // /pricing -> /pr#ng -> /pr*; /about and / stay.
    expect(result.map((e) => [e.source, e.target, e.value])).toEqual([['1_/', '2_/pr*', 2], ['1_/', '2_/about', 1], ['1_/pr*', '2_/', 1], ['2_/pr*', '3_/about', 1]])
  })

  test('regexes every database reads: user text is bound, never spliced', async () => {
    const { engine, basicProject } = opened()
    // Quotes, backslashes and SQL in a rule are data; the alias is literal (no group references).
    const params = { local_path_cleaning_filters: [{ alias: "\\1'); drop table events; --", regex: "^/(pricing)$" }] }
    const result = (await runPaths(engine.sightline, basicProject, params)).result
    expect(result.map((e) => e.target)).toContain("2_\\1'); drop table events; --")
  })
}

/**
 * Static cohorts from an ActorsQuery of persons (PostHog's
 * `insert_cohort_from_query`: the query run once at creation, its persons
 * stored), worked out by hand from `PersonStrategy.filter_conditions`:
 * person and cohort filters, and `search` as `%text%` matched
 * case-insensitively against the `email` and `name` properties, the uuid and
 * the distinct ids. Searches use letters no uuid holds (beyond a-f), so a
 * random uuid never matches by chance.
 */
import { describe, expect } from 'vitest'
import type { Sightline } from '@sightline/core'
import { conformanceCase } from './case.js'
import { count, NOW, openEngine } from './harness.js'
import { failure } from './insights.support.js'
import type { ConformanceTarget } from './target.js'

const gold = { type: 'person', key: 'tier', value: 'gold', operator: 'exact' }

/** The distinct ids of the cohort's persons (each person here has one). */
async function members(s: Sightline, projectId: number, cohortId: number): Promise<string[]> {
  const page = await s.cohorts.persons(projectId, cohortId, { limit: 100 })
  return page.results.flatMap((p) => p.distinctIds).sort()
}

export function cohortActorsQueryCases(target: ConformanceTarget): void {
  describe('cohorts from an ActorsQuery', () => {
    conformanceCase(target, 'a static cohort holds the persons its ActorsQuery lists at creation', async () => {
      const e = await openEngine(target)
      try {
        const s = e.sightline
        const at = NOW.toISOString()
        await s.capture(e.projectId, [
          { distinctId: 'alice', event: 'signup', timestamp: at, properties: { $set: { email: 'Alice@Example.com', tier: 'gold' } } },
          { distinctId: 'bob_1', event: 'signup', timestamp: at, properties: { $set: { name: 'Bobby', tier: 'silver' } } },
          { distinctId: 'carol', event: 'signup', timestamp: at, properties: { $set: { email: 'carol@x.io', tier: 'gold' } } },
          { distinctId: 'dan', event: 'signup', timestamp: at, properties: { $set: { name: 'Dan' } } },
        ])
        const fromQuery = async (query: Record<string, unknown>) => {
          const cohort = await s.cohorts.create(e.projectId, { isStatic: true, query: { kind: 'ActorsQuery', select: ['person', 'id', 'created_at'], ...query } })
          return { cohort, members: await members(s, e.projectId, cohort.id) }
        }
        // tier = gold: alice and carol; the count is theirs too.
        const golden = await fromQuery({ properties: [gold] })
        expect([golden.members, golden.cohort.count, golden.cohort.isStatic]).toEqual([['alice', 'carol'], 2, true])
        // 'EXAMPLE' is in alice's e-mail, whatever the case.
        expect((await fromQuery({ search: 'EXAMPLE' })).members).toEqual(['alice'])
        // 'bob' is in bob_1's distinct id (and his name).
        expect((await fromQuery({ search: 'bob' })).members).toEqual(['bob_1'])
        // `_` is LIKE's any character, as PostHog leaves it: 'ob_y' matches 'bobby' (Bobby, folded); bob_1 has no y.
        expect((await fromQuery({ search: 'ob_y' })).members).toEqual(['bob_1'])
        // Search and filters together: 'x.io' (carol's e-mail) and gold: carol; with fixedProperties silver: no one.
        expect((await fromQuery({ search: 'x.io', properties: [gold] })).members).toEqual(['carol'])
        expect((await fromQuery({ search: 'x.io', fixedProperties: [{ ...gold, value: 'silver' }] })).members).toEqual([])
        // A cohort filter: the dynamic cohort of silver persons is bob_1; an OR group of it and tier = gold is everyone but dan.
        const silver = await s.cohorts.create(e.projectId, { filters: { properties: { type: 'AND', values: [{ ...gold, value: 'silver' }] } } })
        expect((await fromQuery({ properties: [{ type: 'cohort', key: 'id', value: silver.id }] })).members).toEqual(['bob_1'])
        expect((await fromQuery({ properties: { type: 'OR', values: [{ type: 'AND', values: [{ type: 'cohort', key: 'id', value: silver.id }, gold] }, { type: 'OR', values: [{ type: 'cohort', key: 'id', value: silver.id }, gold] }] } })).members).toEqual(['alice', 'bob_1', 'carol'])
        // No filter and no search: every person of the project.
        expect((await fromQuery({})).members).toEqual(['alice', 'bob_1', 'carol', 'dan'])
        // Run once: a gold person who arrives later is not in the cohort made before.
        await s.capture(e.projectId, [{ distinctId: 'erin', event: 'signup', timestamp: at, properties: { $set: { tier: 'gold' } } }])
        expect(await members(s, e.projectId, golden.cohort.id)).toEqual(['alice', 'carol'])
        // Listed persons are added beside the query's.
        const both = await s.cohorts.create(e.projectId, { isStatic: true, distinctIds: ['dan'], query: { kind: 'ActorsQuery', properties: [gold] } })
        expect(await members(s, e.projectId, both.id)).toEqual(['alice', 'carol', 'dan', 'erin'])
      } finally {
        await e.close()
      }
    }, 60_000)

    conformanceCase(target, 'what an ActorsQuery cohort refuses, at its field, writing nothing', async () => {
      const e = await openEngine(target)
      try {
        const s = e.sightline
        const persons = { kind: 'ActorsQuery', properties: [gold] }
        const before = { cohorts: await count(e.db, 'cohorts'), people: await count(e.db, 'cohort_people') }
        for (const [input, attr] of [
          // PostHog's serializer: a dynamic cohort has no query, and a query goes without criteria.
          [{ query: persons }, 'query'],
          [{ isStatic: true, query: persons, filters: { properties: { type: 'AND', values: [gold] } } }, 'query'],
          // validate_query: ActorsQuery or HogQLQuery only; Sightline runs no HogQL SELECT.
          [{ isStatic: true, query: { kind: 'TrendsQuery' } }, 'query'],
          [{ isStatic: true, query: 'select id from persons' }, 'query'],
          [{ isStatic: true, query: { kind: 'HogQLQuery', query: 'select id from persons' } }, 'query__kind'],
          // An insight's actors, a page of them, a field ActorsQuery does not have.
          [{ isStatic: true, query: { ...persons, source: { kind: 'InsightActorsQuery', source: { kind: 'TrendsQuery', series: [] } } } }, 'query__source'],
          [{ isStatic: true, query: { ...persons, limit: 10 } }, 'query__limit'],
          [{ isStatic: true, query: { ...persons, offset: 10 } }, 'query__offset'],
          [{ isStatic: true, query: { ...persons, properties: [gold], sampling: 1 } }, 'query__sampling'],
          // Person scope: an event filter does not work there (PostHog's QueryError); an unknown cohort; a bad operator.
          [{ isStatic: true, query: { kind: 'ActorsQuery', properties: [{ type: 'event', key: '$browser', value: 'Chrome' }] } }, 'query__properties__0__type'],
          [{ isStatic: true, query: { kind: 'ActorsQuery', properties: { type: 'AND', values: [gold, { key: 'tier' }] } } }, 'query__properties__values__1__type'],
          [{ isStatic: true, query: { kind: 'ActorsQuery', properties: [{ type: 'cohort', key: 'id', value: 99999 }] } }, 'query__properties__0__value'],
          [{ isStatic: true, query: { kind: 'ActorsQuery', fixedProperties: [{ ...gold, operator: 'gt' }] } }, 'query__fixedProperties__0__value'],
          [{ isStatic: true, query: { kind: 'ActorsQuery', search: 7 } }, 'query__search'],
          // Text no database stores, refused before any SQL binds it.
          [{ isStatic: true, query: { kind: 'ActorsQuery', search: 'a\u0000b' } }, 'query__search'],
        ] as const) {
          const error = await failure(s.cohorts.create(e.projectId, input as never))
          expect([error.name, error.attr], JSON.stringify(input)).toEqual(['ValidationError', attr])
        }
        // A query is run at creation only; a change that sends one is refused (null, as the cohort reads back, is accepted).
        const fixed = await s.cohorts.create(e.projectId, { isStatic: true, query: null })
        expect((await failure(s.cohorts.update(e.projectId, fixed.id, { query: persons }))).attr).toBe('query')
        expect((await s.cohorts.update(e.projectId, fixed.id, { name: 'Kept', query: null })).name).toBe('Kept')
        expect({ cohorts: await count(e.db, 'cohorts') - 1, people: await count(e.db, 'cohort_people') }).toEqual(before)
      } finally {
        await e.close()
      }
    }, 60_000)
  })
}

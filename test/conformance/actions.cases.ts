import { describe, expect } from 'vitest'
import { ConflictError, NotFoundError, type ActionStepInput, type Sightline } from '@sightline/core'
import { conformanceCase } from './case.js'
import { count, NOW, openEngine } from './harness.js'
import { failure, iso, json, user } from './insights.support.js'
import type { ConformanceTarget } from './target.js'

const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString()

/**
 * One event per person (the distinct id names both), so the persons a cohort
 * "performed the action" selects are the events the action matches.
 */
const EVENTS = [
  { distinctId: 'd1', event: '$pageview', properties: { $current_url: 'https://shop.io/pricing?plan=pro' } },
  { distinctId: 'd2', event: '$pageview', properties: { $current_url: 'https://shop.io/Pricing' } },
  { distinctId: 'd3', event: '$pageview', properties: { $current_url: 'https://shop.io/docs/a_b' } },
  { distinctId: 'd4', event: '$pageview', properties: { $current_url: 'https://shop.io/docs/axb' } },
  {
    distinctId: 'd5',
    event: '$autocapture',
    properties: { $current_url: 'https://shop.io/', $elements_chain: 'button.btn.primary:nth-child="1"nth-of-type="1"text="Sign up";div.hero:nth-child="2"nth-of-type="1"' },
  },
  { distinctId: 'd6', event: '$autocapture', properties: { $elements_chain: 'a:href="/pricing"nth-child="1"nth-of-type="1"text="See Pricing"' } },
  { distinctId: 'd7', event: 'signup', properties: { plan: 'pro', $set: { tier: 'gold' } } },
  { distinctId: 'd8', event: 'signup', properties: { plan: 'free' } },
  // Not an autocapture: its elements are never looked at (PostHog reads them only for `$autocapture` steps).
  { distinctId: 'd9', event: 'clicked', properties: { $elements_chain: 'button:nth-child="1"nth-of-type="1"text="Sign up"' } },
]

/** Each action, and the distinct ids of the events it matches, worked out by hand from PostHog's `action_to_expr`. */
const MATCHES: ReadonlyArray<[string, ActionStepInput[], string[]]> = [
  ['event name', [{ event: 'signup' }], ['d7', 'd8']],
  ['url contains (the default), case-sensitive', [{ url: 'pricing' }], ['d1']],
  ['url contains: `_` is a LIKE wildcard', [{ url: 'docs/a_b' }], ['d3', 'd4']],
  ['url contains: `\\_` is a literal underscore', [{ url: 'docs/a\\_b' }], ['d3']],
  ['url exact', [{ url: 'https://shop.io/Pricing', url_matching: 'exact' }], ['d2']],
  ['url regex', [{ url: '^https://shop\\.io/[Pp]ricing', url_matching: 'regex' }], ['d1', 'd2']],
  ['text exact (the default)', [{ event: '$autocapture', text: 'Sign up' }], ['d5']],
  ['text contains ignores case', [{ event: '$autocapture', text: 'pricing', text_matching: 'contains' }], ['d6']],
  ['text regex', [{ event: '$autocapture', text: 'Sign.*', text_matching: 'regex' }], ['d5']],
  ['element parts only for $autocapture', [{ event: 'clicked', text: 'no such text', selector: 'table' }], ['d9']],
  ['href exact', [{ event: '$autocapture', href: '/pricing' }], ['d6']],
  ['href contains', [{ event: '$autocapture', href: 'PRIC', href_matching: 'contains' }], ['d6']],
  ['href regex', [{ event: '$autocapture', href: '/p[a-z]+', href_matching: 'regex' }], ['d6']],
  // PostHog writes the regex inside `href="..."` of the chain: `^` anchors at the chain's start, so this matches nothing.
  ['href regex between the quotes', [{ event: '$autocapture', href: '^/p', href_matching: 'regex' }], []],
  ['selector', [{ event: '$autocapture', selector: 'button.primary' }], ['d5']],
  ['selector with a parent', [{ event: '$autocapture', selector: 'div.hero > button' }], ['d5']],
  ['tag_name', [{ event: '$autocapture', tag_name: 'a' }], ['d6']],
  ['event properties', [{ event: 'signup', properties: [{ key: 'plan', value: 'pro' }] }], ['d7']],
  ['person properties', [{ properties: [{ key: 'tier', value: 'gold', type: 'person' }] }], ['d7']],
  ['all parts of a step', [{ event: '$pageview', url: 'shop.io', properties: [{ key: '$current_url', value: 'DOCS', operator: 'icontains' }] }], ['d3', 'd4']],
  ['any of the steps', [{ event: 'signup', properties: [{ key: 'plan', value: 'free' }] }, { url: 'pricing' }], ['d1', 'd8']],
  ['a step without parts matches every event', [{}], ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9']],
]

/** The distinct ids of the persons who performed the action in the last 30 days (each person has one distinct id). */
async function performers(s: Sightline, projectId: number, actionId: number): Promise<string[]> {
  const cohort = await s.cohorts.create(projectId, {
    filters: { properties: { type: 'AND', values: [{ type: 'behavioral', value: 'performed_event', event_type: 'actions', key: actionId, time_value: 30, time_interval: 'day' }] } },
  })
  const page = await s.cohorts.persons(projectId, cohort.id, { limit: 1000 })
  expect(page.count).toBe(cohort.count)
  return page.results.flatMap((p) => p.distinctIds).sort()
}

export function actionCases(target: ConformanceTarget): void {
  describe('actions', () => {
    conformanceCase(target, 'each step part matches as PostHog matches it', async () => {
      const e = await openEngine(target)
      try {
        await e.sightline.capture(e.projectId, EVENTS.map((ev, i) => ({ ...ev, timestamp: hoursAgo(i + 1) })))
        for (const [name, steps, expected] of MATCHES) {
          const action = await e.sightline.actions.create(e.projectId, { name, steps })
          expect(await performers(e.sightline, e.projectId, action.id), name).toEqual(expected)
        }
      } finally {
        await e.close()
      }
    }, 60_000)

    conformanceCase(target, 'actions are created, listed, updated and soft-deleted in PostHog shape, with activity', async () => {
      const e = await openEngine(target)
      try {
        const ada = await user(e, 'Ada')
        const steps: ActionStepInput[] = [{ event: '$pageview', url: '/pricing' }, { event: '$autocapture', text: 'Buy', text_matching: 'contains', url_matching: null }]
        const pricing = await e.sightline.actions.create(e.projectId, { name: 'Pricing', description: 'Saw prices', tags: [' Web ', 'web'], steps }, { userId: ada.id })
        const blank = { event: null, properties: null, selector: null, tag_name: null, text: null, text_matching: null, href: null, href_matching: null, url: null, url_matching: null }
        expect(pricing).toEqual({
          id: pricing.id,
          projectId: e.projectId,
          name: 'Pricing',
          description: 'Saw prices',
          tags: ['web'],
          postToSlack: false,
          slackMessageFormat: '',
          steps: [
            { ...blank, event: '$pageview', url: '/pricing', url_matching: 'contains' },
            { ...blank, event: '$autocapture', text: 'Buy', text_matching: 'contains' },
          ],
          createdAt: iso(0),
          createdBy: { id: ada.id, uuid: ada.uuid, distinctId: ada.distinctId, firstName: 'Ada', email: 'ada@acme.io', isEmailVerified: false },
          deleted: false,
          lastCalculatedAt: iso(0),
          pinnedAt: null,
        })
        const [row] = await e.db.raw<Record<string, unknown>>('select project_id, name, steps, deleted, created_by from actions where id = $1', [pricing.id])
        expect({ ...row, steps: json(row!.steps) }).toEqual({ project_id: e.projectId, name: 'Pricing', steps: pricing.steps, deleted: false, created_by: ada.id })

        // PostHog's name rule: unique among the actions that are not deleted.
        const clash = await failure(e.sightline.actions.create(e.projectId, { name: 'Pricing' }))
        expect(clash).toBeInstanceOf(ConflictError)
        expect(clash.message).toBe(`This project already has an action with this name, ID ${pricing.id}`)
        expect(clash.attr).toBe('name')

        const other = await e.sightline.actions.create(e.projectId, { name: 'Other', pinnedAt: 'yes' })
        expect(other.pinnedAt).toBe(iso(0))
        expect((await e.sightline.actions.list(e.projectId)).results.map((a) => a.name)).toEqual(['Other', 'Pricing'])

        const updated = await e.sightline.actions.update(e.projectId, pricing.id, { steps: [{ event: 'signup' }], postToSlack: true }, { userId: ada.id })
        expect(updated.steps).toEqual([{ ...blank, event: 'signup', url_matching: 'contains' }])
        expect(updated.postToSlack).toBe(true)

        // Soft delete: gone from the list, still readable, its name free again; restoring checks the name.
        await e.sightline.actions.update(e.projectId, pricing.id, { deleted: true }, { userId: ada.id })
        expect((await e.sightline.actions.list(e.projectId)).results.map((a) => a.id)).toEqual([other.id])
        expect((await e.sightline.actions.get(e.projectId, pricing.id)).deleted).toBe(true)
        const again = await e.sightline.actions.create(e.projectId, { name: 'Pricing' })
        expect(await failure(e.sightline.actions.update(e.projectId, pricing.id, { deleted: false }))).toBeInstanceOf(ConflictError)
        await e.sightline.actions.update(e.projectId, again.id, { name: 'Pricing 2' })
        expect((await e.sightline.actions.update(e.projectId, pricing.id, { deleted: false })).deleted).toBe(false)

        const log = await e.sightline.activity.list({ projectId: e.projectId, scope: 'Action', itemId: pricing.id })
        expect(log.results.map((r) => r.activity)).toEqual(['updated', 'deleted', 'updated', 'created'])
        expect(log.results[1]!.detail.changes).toEqual([{ type: 'Action', action: 'changed', field: 'deleted', before: false, after: true }])

        // Another project's action is not found.
        const project2 = await e.sightline.projects.create({ organizationId: e.organizationId, name: 'Other' })
        await expect(e.sightline.actions.get(project2.id, pricing.id)).rejects.toBeInstanceOf(NotFoundError)
        await expect(e.sightline.actions.update(project2.id, pricing.id, { name: 'x' })).rejects.toBeInstanceOf(NotFoundError)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'steps no query could compile are refused at their field, and nothing is written', async () => {
      const e = await openEngine(target)
      try {
        const before = await count(e.db, 'actions')
        for (const [steps, attr] of [
          [[{ url: 5 }], 'steps__0__url'],
          [[{ url_matching: 'startswith' }], 'steps__0__url_matching'],
          [[{ event: 'x' }, { url: '(', url_matching: 'regex' }], 'steps__1__url'],
          [[{ event: '$autocapture', text: 'a(?=b)', text_matching: 'regex' }], 'steps__0__text'],
          [[{ event: '$autocapture', selector: 'a::before' }], 'steps__0__selector'],
          [[{ properties: [{ key: 'n', value: 'x', operator: 'gt' }] }], 'steps__0__properties__0__value'],
          [[{ properties: [{ key: 'n', operator: 'nope' }] }], 'steps__0__properties'],
          [[{ properties: [{ key: 'id', value: 999, type: 'cohort' }] }], 'steps__0__properties__0__value'],
          ['x', 'steps'],
        ] as const) {
          const error = await failure(e.sightline.actions.create(e.projectId, { name: 'Bad', steps: steps as never }))
          expect(error.name, JSON.stringify(steps)).toBe('ValidationError')
          expect(error.attr?.startsWith(attr), `${JSON.stringify(steps)}: ${error.attr}`).toBe(true)
        }
        expect((await failure(e.sightline.actions.create(e.projectId, {} as never))).attr).toBe('name')
        expect(await count(e.db, 'actions')).toBe(before)
      } finally {
        await e.close()
      }
    })
  })
}

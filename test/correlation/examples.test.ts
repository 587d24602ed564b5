/**
 * Worked examples, expectations by hand: PostHog's test_funnel_correlation.py
 * journeys (basic events, exclusions, the conversion window, step events and
 * actions left out, person properties named and `$all`, event properties and
 * their exclusions, groups) and ours (significance floor, skew, nobody
 * failing, events outside an actor's time in the funnel). Odds ratios
 * (s + 1)(F - f + 1) / ((S - s + 1)(f + 1)) worked out in the comments.
 * Each row's people URLs are asked too: they list exactly its counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CorrelationRow } from '@sightline/core'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { openFunnelEngine, type FunnelEngine } from '../funnels/support/engine.js'
import { loadExample } from '../funnels/support/load-example.js'
import { Journeys, signupPaid, urlParams } from './support/journeys.js'

type Row = [name: string, success: number, failure: number, odds: number]

const rowsOf = (events: ReadonlyArray<CorrelationRow>): Row[] => events.map((e) => [e.event.event, e.success_count, e.failure_count, e.odds_ratio])

function expectRows(actual: ReadonlyArray<CorrelationRow>, expected: ReadonlyArray<Row>) {
  expect(actual.map((e) => [e.event.event, e.success_count, e.failure_count, e.correlation_type])).toEqual(
    expected.map(([n, s, f, o]) => [n, s, f, o > 1 ? 'success' : 'failure']),
  )
  actual.forEach((e, i) => expect(e.odds_ratio).toBeCloseTo(expected[i]![3], 9))
}

/** Ten converters (even ones did positively_related), ten who dropped (even ones did negatively_related). */
function basicJourneys(): Journeys {
  const j = new Journeys()
  for (let i = 0; i < 20; i++) {
    j.person(`user_${i}`).event(`user_${i}`, 'user signed up', '2020-01-02T14:00:00Z')
    if (i < 10 && i % 2 === 0) j.event(`user_${i}`, 'positively_related', '2020-01-03T14:00:00Z')
    if (i >= 10 && i % 2 === 0) j.event(`user_${i}`, 'negatively_related', '2020-01-03T14:00:00Z')
    if (i < 10) j.event(`user_${i}`, 'paid', '2020-01-04T14:00:00Z')
  }
  return j
}

describePropertySkip()

describe.each(analysisTargets)('funnel correlation worked examples on $name', (target) => {
  let engine: FunnelEngine
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  const run = async (j: Journeys, params: Record<string, unknown>) => {
    const loaded = await loadExample(engine, j.data())
    const response = await engine.sightline.query.funnelCorrelation(loaded.projectId, params)
    return { projectId: loaded.projectId, response }
  }
  /** The people behind each row's URLs, counted: [success, failure] per row. One at a time: a project runs at most 3 queries at once. */
  const peopleCounts = async (projectId: number, events: ReadonlyArray<CorrelationRow>) => {
    const counts: number[][] = []
    for (const e of events) {
      const s = await engine.sightline.query.funnelCorrelationPersons(projectId, urlParams(e.success_people_url), { limit: 100, offset: 0 })
      const f = await engine.sightline.query.funnelCorrelationPersons(projectId, urlParams(e.failure_people_url), { limit: 100, offset: 0 })
      counts.push([s.count, f.count])
    }
    return counts
  }

  it('events: S = F = 10; positively 5/0: 6*11/(6*1) = 11; negatively 0/5: 1*6/(11*6) = 1/11; steps never rows', async () => {
    const { projectId, response } = await run(basicJourneys(), signupPaid({ funnel_correlation_type: 'events' }))
    expectRows(response.result.events, [
      ['positively_related', 5, 0, 11],
      ['negatively_related', 0, 5, 1 / 11],
    ])
    expect(response.result.skewed).toBe(false)
    expect(await peopleCounts(projectId, response.result.events)).toEqual([[5, 0], [0, 5]])
    expect(response.result.events[0]!.success_people_url).toMatch(new RegExp(`^/api/projects/${projectId}/persons/funnel/correlation/\\?.*funnel_correlation_person_converted=true`))
    expect(response.result.events[0]!.event).toEqual({ event: 'positively_related', properties: {}, elements: [] })
    expect(Object.keys(response)).toEqual(['result', 'last_refresh', 'is_cached', 'timezone'])
  })

  it('funnel_correlation_exclude_event_names drops the row; its people are still listed', async () => {
    const { projectId, response } = await run(basicJourneys(), signupPaid({ funnel_correlation_exclude_event_names: ['positively_related'] }))
    expectRows(response.result.events, [['negatively_related', 0, 5, 1 / 11]])
    const url = response.result.events[0]!.success_people_url.replace('negatively_related', 'positively_related')
    expect((await engine.sightline.query.funnelCorrelationPersons(projectId, urlParams(url), { limit: 100, offset: 0 })).count).toBe(5)
  })

  it('only events inside the actor time in the funnel: after its first step, before conversion or the window end', async () => {
    const j = new Journeys()
    j.person('win').event('win', 'user signed up', '2020-01-02T14:00:00Z').event('win', 'positively_related', '2020-01-02T14:02:00Z')
    j.event('win', 'paid', '2020-01-02T14:06:00Z').event('win', 'after_conversion', '2020-01-02T14:07:00Z').event('win', 'before', '2020-01-02T13:59:00Z')
    j.person('drop').event('drop', 'user signed up', '2020-01-02T14:00:00Z').event('drop', 'outside_window', '2020-01-02T14:15:00Z')
    j.event('drop', 'at_window_end', '2020-01-02T14:10:00Z').event('drop', 'inside', '2020-01-02T14:09:59Z')
    // S = F = 1. positively 1/0: 2*2/(1*1) = 4; inside 0/1: 1*1/(2*2) = 1/4. The window end itself is out (PostHog's `<`).
    const { response } = await run(j, signupPaid({ funnel_window_interval: 10, funnel_window_interval_unit: 'minute' }))
    expectRows(response.result.events, [
      ['positively_related', 1, 0, 4],
      ['inside', 0, 1, 1 / 4],
    ])
  })

  it('action steps leave out their events, even ones the action does not match', async () => {
    const j = new Journeys()
    for (let i = 0; i < 3; i++) {
      j.person(`user_${i}`).event(`user_${i}`, 'user signed up', '2020-01-02T14:00:00Z').event(`user_${i}`, 'other', '2020-01-02T14:10:00Z')
      if (i % 2 === 0) j.event(`user_${i}`, 'positively_related', '2020-01-03T14:00:00Z')
      j.event(`user_${i}`, 'paid', '2020-01-04T14:00:00Z')
    }
    j.person('failure').event('failure', 'user signed up', '2020-01-02T14:00:00Z')
    const data = { ...j.data(), actions: { 1: { name: 'signed up', eventNames: ['user signed up'] }, 2: { name: 'paid', eventNames: ['paid'] } } }
    const loaded = await loadExample(engine, data)
    const params = loaded.params({ ...signupPaid(), events: [], actions: [{ id: 1, type: 'actions', order: 0 }, { id: 2, type: 'actions', order: 1 }] })
    const response = await engine.sightline.query.funnelCorrelation(loaded.projectId, params)
    // S = 3, F = 1. positively 2/0: 3*2/(2*1) = 3; other 3/0: 4*2/(1*1) = 8.
    expectRows(response.result.events, [
      ['other', 3, 0, 8],
      ['positively_related', 2, 0, 3],
    ])
  })

  it('person properties: named ones read missing as ""; $all skips them; exclusions', async () => {
    const j = new Journeys()
    const person = (id: string, props: Record<string, unknown>, paid: boolean) => {
      j.person(id, props).event(id, 'user signed up', '2020-01-02T14:00:00Z')
      if (paid) j.event(id, 'paid', '2020-01-04T14:00:00Z')
    }
    for (let i = 0; i < 5; i++) person(`v${i}`, { $browser: 'Positive', $nice: 'very' }, true)
    for (let i = 0; i < 10; i++) person(`n${i}`, { $browser: 'Positive', $nice: 'not' }, true)
    for (let i = 0; i < 5; i++) person(`s${i}`, { $browser: 'Negative', $nice: 'smh' }, false)
    person('fail', { $browser: 'Positive' }, false)
    person('succ', { $browser: 'Negative' }, true)
    // S = 16, F = 6 (PostHog's test_correlation_with_multiple_properties).
    const expected: Row[] = [
      ['$browser::Positive', 15, 1, (16 * 6) / (2 * 2)],
      ['$nice::not', 10, 0, (11 * 7) / (7 * 1)],
      ['$nice::very', 5, 0, (6 * 7) / (12 * 1)],
      ['$nice::smh', 0, 5, (1 * 2) / (17 * 6)],
      ['$browser::Negative', 1, 5, (2 * 2) / (16 * 6)],
      ['$nice::', 1, 1, (2 * 6) / (16 * 2)],
    ]
    const loaded = await loadExample(engine, j.data())
    const named = await engine.sightline.query.funnelCorrelation(loaded.projectId, signupPaid({ funnel_correlation_type: 'properties', funnel_correlation_names: ['$browser', '$nice'] }))
    expectRows(named.result.events, expected)
    expect(await peopleCounts(loaded.projectId, named.result.events)).toEqual(expected.map(([, s, f]) => [s, f]))
    const all = await engine.sightline.query.funnelCorrelation(loaded.projectId, signupPaid({ funnel_correlation_type: 'properties', funnel_correlation_names: ['$all'] }))
    expectRows(all.result.events, expected.slice(0, 5))
    const excluded = await engine.sightline.query.funnelCorrelation(
      loaded.projectId,
      signupPaid({ funnel_correlation_type: 'properties', funnel_correlation_names: '["$all"]', funnel_correlation_exclude_names: '["$browser"]' }),
    )
    expectRows(excluded.result.events, expected.slice(1, 4))
  })

  it('person properties: an actor without a person (personless events) has no property rows, only its totals count (PostHog joins persons with an inner JOIN)', async () => {
    const j = new Journeys()
    for (const [id, paid] of [['p0', true], ['p1', true], ['p2', false], ['p3', false]] as const) {
      j.person(id, { $browser: 'A' }).event(id, 'user signed up', '2020-01-02T14:00:00Z')
      if (paid) j.event(id, 'paid', '2020-01-04T14:00:00Z')
    }
    const personless = { $process_person_profile: false }
    j.event('loner', 'user signed up', '2020-01-02T14:00:00Z', personless).event('loner', 'paid', '2020-01-04T14:00:00Z', personless)
    // S = 3 (p0, p1, loner), F = 2. $browser::A: 2 of the successes, both failures: (2+1)(2-2+1) / ((3-2+1)(2+1)) = 1/2.
    // No "$browser::" row for loner (a left join would give one: 1 success, 0 failures).
    const { projectId, response } = await run(j, signupPaid({ funnel_correlation_type: 'properties', funnel_correlation_names: ['$browser'] }))
    expectRows(response.result.events, [['$browser::A', 2, 2, 0.5]])
    expect(await peopleCounts(projectId, response.result.events)).toEqual([[2, 2]])
    const all = await engine.sightline.query.funnelCorrelation(projectId, signupPaid({ funnel_correlation_type: 'properties', funnel_correlation_names: ['$all'] }))
    expectRows(all.result.events, [['$browser::A', 2, 2, 0.5]])
  })

  it('event_with_properties: rows of more than 2 actors; excluded property names', async () => {
    const j = new Journeys()
    for (let i = 0; i < 20; i++) {
      j.person(`user_${i}`).event(`user_${i}`, 'user signed up', '2020-01-02T14:00:00Z')
      if (i < 10 && i % 2 === 0) j.event(`user_${i}`, 'positively_related', '2020-01-03T14:00:00Z', { signup_source: i % 4 === 0 ? 'facebook' : 'email', blah: 'value_bleh', empty: null })
      if (i >= 10 && i % 2 === 0) j.event(`user_${i}`, 'negatively_related', '2020-01-03T14:00:00Z', { signup_source: i % 6 === 0 ? 'shazam' : 'email' })
      if (i < 10) j.event(`user_${i}`, 'paid', '2020-01-04T14:00:00Z')
    }
    // S = F = 10. blah 5/0: 6*11/(6*1) = 11; facebook (0, 4, 8) 3/0: 4*11/(8*1) = 5.5; email on negatively (10, 14, 16) 0/3: 1*8/(11*4) = 2/11.
    // Dropped: email on positively (2 actors), shazam (2), JSON null values.
    const loaded = await loadExample(engine, j.data())
    const params = signupPaid({ funnel_correlation_type: 'event_with_properties', funnel_correlation_event_names: ['positively_related', 'negatively_related'] })
    const response = await engine.sightline.query.funnelCorrelation(loaded.projectId, params)
    expectRows(response.result.events, [
      ['positively_related::blah::value_bleh', 5, 0, 11],
      ['positively_related::signup_source::facebook', 3, 0, 5.5],
      ['negatively_related::signup_source::email', 0, 3, 2 / 11],
    ])
    expect(await peopleCounts(loaded.projectId, response.result.events)).toEqual([[5, 0], [3, 0], [0, 3]])
    const excluded = await engine.sightline.query.funnelCorrelation(loaded.projectId, { ...params, funnel_correlation_event_exclude_property_names: ['signup_source'] })
    expectRows(excluded.result.events, [['positively_related::blah::value_bleh', 5, 0, 11]])
  })

  it('event_with_properties with $autocapture: every named event read by its $event_type and elements chain', async () => {
    // posthog-js sends the chain it built as $elements_chain, which capture stores as the event's elements chain.
    const j = new Journeys()
    const pay = 'button.btn.primary:nth-child="1"nth-of-type="1"text="Pay"'
    const form = 'form:attr_id="signup"nth-child="2"nth-of-type="1"'
    for (let i = 0; i < 20; i++) {
      j.person(`user_${i}`).event(`user_${i}`, 'user signed up', '2020-01-02T14:00:00Z')
      if ([0, 2, 4].includes(i)) j.event(`user_${i}`, '$autocapture', '2020-01-03T14:00:00Z', { $event_type: 'click', $elements_chain: pay })
      if ([10, 12, 14].includes(i)) j.event(`user_${i}`, '$autocapture', '2020-01-03T14:00:00Z', { $event_type: 'submit', $elements_chain: form })
      // The same click by two droppers only: 2 actors, under the "more than 2" bar.
      if ([11, 13].includes(i)) j.event(`user_${i}`, '$autocapture', '2020-01-03T15:00:00Z', { $event_type: 'change', $elements_chain: pay })
      // Named next to $autocapture, it is read by its (empty) elements chain too, not by its properties.
      if ([0, 2, 4, 6].includes(i)) j.event(`user_${i}`, 'positively_related', '2020-01-03T16:00:00Z', { src: 'x' })
      if (i < 10) j.event(`user_${i}`, 'paid', '2020-01-04T14:00:00Z')
    }
    // S = F = 10. positively_related "" + divider + "": 4/0, 5*11/(7*1) = 55/7; the Pay click 3/0, 4*11/(8*1) = 5.5;
    // the form submit 0/3, 1*8/(11*4) = 2/11.
    const params = signupPaid({ funnel_correlation_type: 'event_with_properties', funnel_correlation_event_names: ['$autocapture', 'positively_related'] })
    const { projectId, response } = await run(j, params)
    expectRows(response.result.events, [
      ['positively_related::elements_chain::__~~__', 4, 0, 55 / 7],
      [`$autocapture::elements_chain::click__~~__${pay}`, 3, 0, 5.5],
      [`$autocapture::elements_chain::submit__~~__${form}`, 0, 3, 2 / 11],
    ])
    // serialize_event_with_property: an autocapture row shows its $event_type and its parsed elements; the others neither.
    const [plain, click, submit] = response.result.events
    expect(plain!.event).toMatchObject({ properties: {}, elements: [] })
    expect(click!.event.properties).toEqual({ $event_type: 'click' })
    expect(click!.event.elements).toMatchObject([{ tag_name: 'button', attr_class: ['btn', 'primary'], nth_child: 1, nth_of_type: 1, text: 'Pay', order: 0 }])
    expect(submit!.event.properties).toEqual({ $event_type: 'submit' })
    expect(submit!.event.elements).toMatchObject([{ tag_name: 'form', attr_id: 'signup', nth_child: 2, nth_of_type: 1, text: null, order: 0 }])
    // The people URLs are PostHog's construct_person_url: an autocapture row filters by its first element (tag, text)
    // and the chain's selector, not by $event_type, so the two droppers' change on the Pay button are listed too (3/2);
    // any other row filters by an event property elements_chain, which no event has (0/0).
    expect(await peopleCounts(projectId, response.result.events)).toEqual([[0, 0], [3, 2], [0, 3]])
  })

  it('groups: actors are companies, events count by the group they carry', async () => {
    const j = new Journeys()
    for (let i = 0; i < 4; i++) {
      const g = { groups: { 0: `org:${i}` } }
      j.group(0, `org:${i}`, { industry: i < 2 ? 'finance' : 'retail' })
      j.person(`u${i}`).event(`u${i}`, 'user signed up', '2020-01-02T14:00:00Z', {}, g)
      j.event(`u${i}`, 'seen', '2020-01-03T14:00:00Z', {}, i === 0 ? g : {})
      // Another person's event carrying the company counts for the company.
      if (i === 1) j.person('other').event('other', 'seen', '2020-01-03T14:00:00Z', {}, g)
      if (i < 2) j.event(`u${i}`, 'paid', '2020-01-04T14:00:00Z', {}, g)
    }
    // S = F = 2. seen 2/0: 3*3/(1*1) = 9; industry::finance 2/0 = 9, retail 0/2 = 1/9.
    const loaded = await loadExample(engine, j.data())
    const events = await engine.sightline.query.funnelCorrelation(loaded.projectId, signupPaid({ aggregation_group_type_index: 0 }))
    expectRows(events.result.events, [['seen', 2, 0, 9]])
    const props = await engine.sightline.query.funnelCorrelation(loaded.projectId, signupPaid({ aggregation_group_type_index: 0, funnel_correlation_type: 'properties', funnel_correlation_names: ['industry'] }))
    expectRows(props.result.events, [
      ['industry::finance', 2, 0, 9],
      ['industry::retail', 0, 2, 1 / 9],
    ])
    expect(await peopleCounts(loaded.projectId, props.result.events)).toEqual([[2, 0], [0, 2]])
  })

  it('significance: among 60 actors a row needs min(25, 2% of 60) = 1.2 actors; skew above 10 to 1', async () => {
    const j = new Journeys()
    for (let i = 0; i < 60; i++) {
      j.person(`p${i}`).event(`p${i}`, 'user signed up', '2020-01-02T14:00:00Z')
      if (i === 0) j.event(`p${i}`, 'rare', '2020-01-02T15:00:00Z')
      if (i < 2) j.event(`p${i}`, 'pair', '2020-01-02T15:00:00Z')
      if (i < 5) j.event(`p${i}`, 'paid', '2020-01-04T14:00:00Z')
    }
    // S = 5, F = 55: skewed. pair 2/0: 3*56/(4*1) = 42.
    const { response } = await run(j, signupPaid())
    expectRows(response.result.events, [['pair', 2, 0, 42]])
    expect(response.result.skewed).toBe(true)
  })

  it('nobody failed: no rows, skewed; no steps at all: no rows, not skewed', async () => {
    const j = new Journeys().person('a').event('a', 'user signed up', '2020-01-02T14:00:00Z').event('a', 'x', '2020-01-02T15:00:00Z').event('a', 'paid', '2020-01-04T14:00:00Z')
    const { projectId, response } = await run(j, signupPaid())
    expect(response.result).toEqual({ events: [], skewed: true })
    const none = await engine.sightline.query.funnelCorrelation(projectId, { events: [], actions: [] })
    expect(none.result).toEqual({ events: [], skewed: false })
  })

  it('top 10 each way, strongest first', async () => {
    const j = new Journeys()
    // 24 actors, half convert; event k (k = 1..12) done by k converters, event -k by k droppers.
    for (let i = 0; i < 24; i++) {
      const id = `p${i}`
      j.person(id).event(id, 'user signed up', '2020-01-02T14:00:00Z')
      const rank = (i % 12) + 1
      for (let k = rank; k <= 12; k++) j.event(id, `${i < 12 ? 'win' : 'lose'}_${String(k).padStart(2, '0')}`, '2020-01-02T15:00:00Z')
      if (i < 12) j.event(id, 'paid', '2020-01-04T14:00:00Z')
    }
    // win_k is done by k converters (ranks 1..k): odds (k+1)*13/((13-k)*1), increasing in k.
    const { response } = await run(j, signupPaid())
    const names = rowsOf(response.result.events).map((r) => r[0])
    expect(names).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `win_${String(12 - i).padStart(2, '0')}`),
      ...Array.from({ length: 10 }, (_, i) => `lose_${String(12 - i).padStart(2, '0')}`),
    ])
    expect(response.result.events[0]!.odds_ratio).toBeCloseTo((13 * 13) / 1, 9)
  })
})

import { dataset, done, ev, MARCH, under, type FunnelExample } from './funnel-example-builders.js'

const PRO = [{ key: 'plan', value: 'pro', operator: 'exact', type: 'event' }]
const UNORDERED = { ...MARCH, funnel_order_type: 'unordered' }
const BROWSER_AT_STEP_0 = { breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'step', breakdown_attribution_value: 0 }

const TEN_MINUTES = { funnel_window_interval: 10, funnel_window_interval_unit: 'minute' }
const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

/**
 * Worked examples of unordered funnels (funnels.md §5) written to kill the
 * mutants that survived in packages/core/src/query/funnels/compile/unordered-sql.ts
 * (README, "Mutation testing"): one event name under two filters, step
 * attribution; and for funnels of distinct events, decided by one window
 * pass (unordered-window-sql.ts, once step lists): which window is
 * reported, which time heads a step, a heavy run (once over the lists' bound).
 * Derived by hand.
 */
export const UNORDERED_EXAMPLES: FunnelExample[] = [
  {
    name: "unordered: an event of a step's name that fails the step's filter takes no part",
    data: dataset([ev('p1', 'a', '10:00', { plan: 'pro' }), ev('p1', 'a', '10:01', { plan: 'free' }), ev('p1', 'b', '10:02')]),
    params: { ...UNORDERED, events: [{ id: 'a', properties: PRO }, { id: 'b' }] },
    expected: [done(0, 1), done(1, 1, 120)],
    why:
      'Step 0 is a with plan pro, step 1 is b. The free a matches neither, so it is no event of the funnel: a(pro)@10:00 and b@10:02 fill both queues, 2 steps, 120 s. ' +
      '(Kept as an event matching nothing, it would empty the queues as an exclusion does: 1 step.)',
  },
  {
    name: 'unordered: of two windows holding as many steps, the first is reported',
    data: dataset([ev('p1', 'a', '10:00'), ev('p1', 'b', '10:05'), ev('p1', 'c', '10:20'), ev('p1', 'a', '10:22')]),
    params: { ...UNORDERED, ...TEN_MINUTES, events: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] },
    expected: [done(0, 1), done(1, 1, 300), done(2, 0)],
    why:
      'A 10-minute window. a@10:00 and b@10:05 fill two queues. At c@10:20, a@10:00 leaves the window: the record (2 steps, heads 10:00 and 10:05) is made, then a and b leave. ' +
      'c@10:20 and a@10:22 fill two queues again, recorded at the last event, but a record replaces the best only when deeper: 2 steps, 300 s (the later window would give 120 s).',
  },
  {
    name: "unordered: a step's head is its first time in the window; later repeats of it do not move it",
    data: dataset([ev('p1', 'b', '10:00'), ev('p1', 'a', '10:20'), ev('p1', 'b', '10:25'), ev('p1', 'b', '10:27'), ev('p1', 'c', '10:28')]),
    params: { ...UNORDERED, ...TEN_MINUTES, events: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] },
    expected: [done(0, 1), done(1, 1, 300), done(2, 1, 180)],
    why:
      'b@10:00 leaves the window at a@10:20 (record: 1 step). Then a@10:20, b@10:25, b@10:27 (queued behind the first b) and c@10:28: 3 steps, recorded at the last event. ' +
      'The heads are each queue\'s oldest event, 10:20, 10:25 and 10:28, sorted: gaps 300 s and 180 s (the b at 10:27 would give 420 s and 60 s).',
  },
  {
    name: 'unordered: a person with 67 events, a and b twenty minutes apart, then b and c five minutes apart',
    data: dataset([...Array.from({ length: 66 }, (_, i) => ev('p1', i % 2 === 0 ? 'a' : 'b', clock(i * 20))), ev('p1', 'c', clock(65 * 20 + 5))]),
    params: { ...UNORDERED, ...TEN_MINUTES, events: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] },
    expected: [done(0, 1), done(1, 1, 300), done(2, 0)],
    why:
      'a at 00:00, b at 00:20, a at 00:40 ... b at 21:40, c at 21:45, with a 10-minute window: each window holds one event until the last b, which c joins 300 s later: 2 steps. ' +
      '(Step lists, once used here, left a run this long to the window passes: 67 starts each reading the 67 times listed pass 64 times them.)',
  },
  {
    name: 'unordered: one event name under two filters, an event matching both goes to the emptier step',
    data: dataset([
      ev('p1', 'a', '10:00', { plan: 'pro' }),
      ev('p1', 'a', '10:01', { plan: 'pro' }),
      ev('p2', 'a', '10:00', { plan: 'free' }),
      ev('p2', 'a', '10:01', { plan: 'pro' }),
    ]),
    params: { ...UNORDERED, events: [{ id: 'a', properties: PRO }, { id: 'a' }] },
    expected: [done(0, 2), done(1, 2, 60)],
    why:
      'Step 0 is a with plan pro, step 1 any a: a pro a matches both. p1: a(pro)@10:00 finds both queues empty and goes to the lower step, 0; ' +
      'a(pro)@10:01 goes to the step whose newest event is oldest, the empty step 1: 2 steps, heads 10:00 and 10:01, 60 s. ' +
      'p2: a(free)@10:00 can only be step 1; a(pro)@10:01 goes to the empty step 0: 2 steps, 60 s. (Filing each event under its lowest step would give p1 1 step.)',
  },
  {
    name: 'unordered, step attribution (step 0): a value enters with its own event, the later steps take any',
    data: dataset([
      ev('p1', 'b', '10:00', { $browser: 'Chrome' }),
      ev('p1', 'a', '10:05', { $browser: 'Safari' }),
      ev('p2', 'a', '10:00', { $browser: 'Chrome' }),
    ]),
    params: { ...UNORDERED, ...BROWSER_AT_STEP_0, events: [{ id: 'a' }, { id: 'b' }] },
    expected: [under(['Chrome'], [done(0, 2), done(1, 1, 300)]), under(['Safari'], [done(0, 1), done(1, 0)])],
    why:
      "Unordered step attribution takes its candidates from any step's event: p1 has Chrome (b) and Safari (a), p2 Chrome. " +
      'An event enters empty queues only when it carries the value (done = 0 = the attribution step); once in, any event counts. ' +
      "Chrome: p1's b@10:00 enters, a@10:05 joins: 2 steps, 300 s; p2's a enters: 1 step. Chrome: 2 -> 1, 300 s. " +
      "Safari: p1's b@10:00 is Chrome and cannot enter; a@10:05 enters, nothing follows: 1 step. Safari: 1 -> 0. Ranked by the last step: Chrome first.",
  },
  {
    name: 'unordered, step attribution with overlapping steps: an event that cannot enter is not filed either',
    data: dataset([
      ev('p1', 'a', '10:00', { $browser: 'Chrome' }),
      ev('p1', 'a', '10:01', { $browser: 'Safari' }),
      ev('p1', 'z', '10:02', { $browser: 'Safari' }),
    ]),
    params: { ...UNORDERED, ...BROWSER_AT_STEP_0, events: [{ id: 'a' }, { id: null }] },
    expected: [under(['Chrome'], [done(0, 1), done(1, 1, 60)]), under(['Safari'], [done(0, 1), done(1, 1, 60)])],
    why:
      'Steps a and All events: an a matches both. Candidates: Chrome and Safari. ' +
      "Chrome: a@10:00 enters and takes the lower empty step, 0; a@10:01 goes to the empty All-events step: 2 steps, 60 s. " +
      "Safari: a@10:00 is Chrome and is skipped (done = 0), so it is in no queue; a@10:01 enters at step 0 (both empty), z@10:02 fills All events: 2 steps, 60 s. " +
      '(Had the skipped a@10:00 been filed under step 0, a@10:01 would go to All events, z behind it, and Safari would have 1 step.) Tied, by value: Chrome, Safari.',
  },
  {
    name: 'unordered, first_touch breakdown with overlapping steps: events without the value still count',
    data: dataset([ev('p1', 'a', '10:00'), ev('p1', 'a', '10:01', { $browser: 'Chrome' })]),
    params: { ...UNORDERED, events: [{ id: 'a' }, { id: null }], breakdown: '$browser', breakdown_type: 'event', breakdown_attribution_type: 'first_touch' },
    expected: [under(['Chrome'], [done(0, 1), done(1, 1, 60)])],
    why:
      "first_touch: p1's first event with a browser is a@10:01, so p1 runs under Chrome, with all its events (only step attribution asks an event to carry the value). " +
      'Steps a and All events: a@10:00 (no browser) matches both, both queues are empty, it takes step 0; a@10:01 goes to the empty All-events step: 2 steps, 60 s.',
  },
  {
    name: 'unordered: All events first and a repeated step, one event name fills all three in turn',
    data: dataset([ev('p1', 'a', '10:00'), ev('p1', 'a', '10:01'), ev('p1', 'a', '10:02'), ev('p2', 'z', '10:00'), ev('p2', 'a', '10:05')]),
    params: { ...UNORDERED, events: [{ id: null }, { id: 'a' }, { id: 'a' }] },
    expected: [done(0, 2), done(1, 2, 180), done(2, 1, 60)],
    why:
      'Steps All events, a, a: an a matches all three. p1: a@10:00 finds every queue empty and takes the lowest, step 0 (All events); a@10:01 takes the lower empty one, step 1; a@10:02 step 2: 3 steps, heads 10:00, 10:01, 10:02, gaps 60 and 60 s. ' +
      'p2: z@10:00 can only be All events; a@10:05 goes to the lowest empty step, 1: 2 steps, 300 s. Step 1: 60 and 300 s, mean and median 180; step 2: p1, 60 s. ' +
      '(Filing each event under its lowest step would put every a under All events: p1 1 step.)',
  },
]

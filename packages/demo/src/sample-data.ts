import { Random, deriveSeed, weighted } from './random.js'

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

export interface SampleDataOptions {
  /** Same seed, same events. Default 42. */
  seed?: number
  /** Number of people. Default 5,000, or targetEvents / 60 when only targetEvents is given. */
  persons?: number
  /** Length of the window that ends at `end`. Default 90. */
  days?: number
  /** Exclusive end of the window. Default: the start of the current UTC day. Pass the engine's clock. */
  end?: Date
  /** Approximate number of events. Default 300,000, or persons * 60 when only persons is given. */
  targetEvents?: number
  /** Maximum events per batch. Default 5,000. */
  batchSize?: number
}

export interface SampleData {
  /** Inclusive start of the window: `end - days`. */
  readonly start: Date
  /** Exclusive end of the window. */
  readonly end: Date
  readonly persons: number
  /** What the batches will hold, usually within a few percent: a total for a progress bar. */
  readonly estimatedEvents: number
  /**
   * Batches of at most `batchSize` events (all full except the last), timestamps non-decreasing
   * across batches. Generated lazily, an hour of traffic at a time, so memory holds about an hour
   * of events plus a little state per person; iterating again regenerates the same events.
   */
  readonly batches: Iterable<SampleEvent[]>
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const EVENTS_PER_PERSON = 60

/** Builds a deterministic, realistic product-analytics data set (see SampleDataOptions). */
export function generateSampleData(options: SampleDataOptions = {}): SampleData {
  const settings = resolveSettings(options)
  const timeline = new Timeline(settings.start, settings.end)
  const plans = planPersons(settings, timeline)
  const estimatedEvents = Math.round(plans.reduce((sum, plan) => sum + plan.expectedEvents, 0))
  return Object.freeze({
    start: new Date(settings.start),
    end: new Date(settings.end),
    persons: settings.persons,
    estimatedEvents,
    batches: { [Symbol.iterator]: () => generateBatches(settings, timeline, plans) },
  })
}

interface Settings {
  readonly seed: number
  readonly persons: number
  readonly start: number
  readonly end: number
  readonly targetEvents: number
  readonly batchSize: number
}

function resolveSettings(options: SampleDataOptions): Settings {
  const { seed = 42, days = 90, batchSize = 5_000 } = options
  // Keep the default 60 events per person when only one size is given, so that a bigger data set
  // has more people rather than a few impossibly busy ones (and a smaller one is actually small).
  const persons =
    options.persons ??
    (options.targetEvents === undefined ? 5_000 : Math.max(1, Math.round(options.targetEvents / EVENTS_PER_PERSON)))
  const targetEvents = options.targetEvents ?? persons * EVENTS_PER_PERSON
  const end = options.end?.getTime() ?? startOfUtcDay(Date.now())
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`)
  if (!Number.isInteger(persons) || persons < 1) throw new RangeError(`persons must be a positive integer, got ${persons}`)
  if (!Number.isFinite(days) || days <= 0) throw new RangeError(`days must be a positive number, got ${days}`)
  if (!Number.isFinite(targetEvents) || targetEvents < 0) throw new RangeError(`targetEvents must be >= 0, got ${targetEvents}`)
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`)
  if (!Number.isFinite(end)) throw new RangeError('end must be a valid Date')
  return Object.freeze({ seed, persons, start: end - Math.round(days * DAY), end, targetEvents, batchSize })
}

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY) * DAY
}

// ---------------------------------------------------------------------------------------------
// Time: traffic intensity by UTC hour and weekday.

/** Relative traffic per UTC hour: Europe's working day overlapping America's. */
const HOUR_WEIGHTS = [
  0.3, 0.24, 0.2, 0.18, 0.18, 0.22, 0.32, 0.48, 0.68, 0.85, 0.95, 1.0, 1.02, 1.08, 1.15, 1.2, 1.2, 1.15, 1.05,
  0.92, 0.78, 0.62, 0.48, 0.37,
]
/** Relative traffic per UTC weekday, Sunday first. */
const WEEKDAY_WEIGHTS = [0.5, 1.0, 1.04, 1.02, 0.98, 0.88, 0.46]

/**
 * Maps "intensity positions" to instants: a uniform draw of positions over [0, total) gives
 * instants distributed like real traffic. Piecewise constant per hour, so both directions are a
 * lookup and a little arithmetic.
 */
class Timeline {
  readonly total: number
  readonly #start: number
  readonly #end: number
  readonly #cumulative: Float64Array
  readonly #weights: Float64Array

  constructor(start: number, end: number) {
    const slots = Math.max(1, Math.ceil((end - start) / HOUR))
    this.#start = start
    this.#end = end
    this.#weights = new Float64Array(slots)
    this.#cumulative = new Float64Array(slots + 1)
    for (let i = 0; i < slots; i++) {
      const slotStart = start + i * HOUR
      const date = new Date(slotStart)
      const weight = (HOUR_WEIGHTS[date.getUTCHours()] ?? 1) * (WEEKDAY_WEIGHTS[date.getUTCDay()] ?? 1)
      this.#weights[i] = weight
      this.#cumulative[i + 1] = (this.#cumulative[i] ?? 0) + (weight * Math.min(HOUR, end - slotStart)) / HOUR
    }
    this.total = this.#cumulative[slots] ?? 0
  }

  /** The instant (ms) at `position`; positions at or past `total` map to the end. */
  timeAt(position: number): number {
    if (position >= this.total) return this.#end
    let lo = 0
    let hi = this.#weights.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if ((this.#cumulative[mid] as number) <= position) lo = mid
      else hi = mid - 1
    }
    const offset = (position - (this.#cumulative[lo] as number)) / (this.#weights[lo] as number)
    return Math.min(this.#end, Math.floor(this.#start + (lo + offset) * HOUR))
  }

  /** The position of instant `time` (the inverse of timeAt). */
  positionOf(time: number): number {
    if (time >= this.#end) return this.total
    const slot = Math.max(0, Math.min(this.#weights.length - 1, Math.floor((time - this.#start) / HOUR)))
    const within = (time - this.#start - slot * HOUR) / HOUR
    return (this.#cumulative[slot] as number) + (this.#weights[slot] as number) * within
  }
}

// ---------------------------------------------------------------------------------------------
// Catalog: what the product and its visitors look like.

type Plan = 'free' | 'starter' | 'pro' | 'enterprise'
const PRICES: Record<Plan, number> = { free: 0, starter: 19.99, pro: 49.99, enterprise: 499 }
const ADD_ON_PRICES = [4.99, 9.99, 19.99, 29.99, 99]
const signupPlan = weighted<Plan>([['free', 70], ['starter', 15], ['pro', 11], ['enterprise', 4]])
const upgradePlan = weighted<Plan>([['starter', 55], ['pro', 38], ['enterprise', 7]])

const country = weighted([
  ['US', 34], ['IN', 9], ['DE', 8], ['GB', 8], ['BR', 6], ['FR', 5], ['CA', 4], ['NL', 3], ['ES', 3], ['IT', 3],
  ['AU', 3], ['JP', 3], ['PL', 2], ['SE', 2], ['MX', 2], ['NG', 1], ['SG', 1], ['ZA', 1], ['KR', 1], ['IE', 1],
] as const)
const EURO_COUNTRIES = new Set(['DE', 'FR', 'NL', 'ES', 'IT', 'IE'])

const deviceType = weighted([['Desktop', 62], ['Mobile', 33], ['Tablet', 5]] as const)
const osFor = {
  Desktop: weighted([['Windows', 55], ['Mac OS X', 35], ['Linux', 10]] as const),
  Mobile: weighted([['iOS', 50], ['Android', 50]] as const),
  Tablet: weighted([['iOS', 70], ['Android', 30]] as const),
}
type Os = 'Windows' | 'Mac OS X' | 'Linux' | 'iOS' | 'Android'
type Browser = 'Chrome' | 'Safari' | 'Firefox' | 'Edge'
// Browsers depend on the OS (no Safari on Windows); overall about Chrome 60%, Safari 25%, Edge 8%, Firefox 7%.
const browserFor: Record<Os, (random: Random) => Browser> = {
  Windows: weighted<Browser>([['Chrome', 72], ['Edge', 20], ['Firefox', 8]]),
  'Mac OS X': weighted<Browser>([['Chrome', 55], ['Safari', 35], ['Firefox', 7], ['Edge', 3]]),
  Linux: weighted<Browser>([['Chrome', 65], ['Firefox', 35]]),
  iOS: weighted<Browser>([['Safari', 85], ['Chrome', 15]]),
  Android: weighted<Browser>([['Chrome', 94], ['Firefox', 4], ['Edge', 2]]),
}
const BROWSER_VERSIONS: Record<Browser, readonly [number, number]> = {
  Chrome: [118, 131],
  Safari: [15, 18],
  Firefox: [115, 133],
  Edge: [118, 131],
}

const referringDomain = weighted([
  ['$direct', 44], ['www.google.com', 30], ['www.bing.com', 3], ['duckduckgo.com', 2], ['news.ycombinator.com', 5],
  ['t.co', 4], ['www.linkedin.com', 4], ['github.com', 4], ['www.reddit.com', 3], ['www.producthunt.com', 1],
] as const)
const UTM_FOR_DOMAIN: Record<string, readonly [source: string, medium: string, chance: number]> = {
  'www.google.com': ['google', 'cpc', 0.3],
  'www.bing.com': ['bing', 'cpc', 0.3],
  't.co': ['twitter', 'social', 0.5],
  'www.linkedin.com': ['linkedin', 'social', 0.5],
  'www.producthunt.com': ['producthunt', 'referral', 0.8],
  $direct: ['newsletter', 'email', 0.08],
}
const CAMPAIGNS = ['spring_launch', 'brand', 'retargeting', 'webinar', 'product_update']

const BLOG_SLUGS = [
  'what-is-product-analytics', 'funnels-101', 'retention-curves', 'north-star-metric',
  'ab-testing-guide', 'cohort-analysis',
]
const DOC_TOPICS = ['getting-started', 'capture', 'identify', 'groups', 'funnels', 'retention', 'api']
/** Pages seen before signing in; a few paths carry a slug, as real sites do. */
const marketingPath = weighted<(random: Random) => string>([
  [() => '/', 30], [() => '/pricing', 14], [() => '/features', 10], [() => '/blog', 6],
  [(r) => `/blog/${r.pick(BLOG_SLUGS)}`, 12], [() => '/docs', 8], [(r) => `/docs/${r.pick(DOC_TOPICS)}`, 9],
  [() => '/customers', 4], [() => '/about', 3], [() => '/changelog', 4],
])
/** Pages of the product itself, seen once signed in. */
const appPath = weighted<(random: Random) => string>([
  [() => '/dashboard', 24], [() => '/insights', 12], [(r) => `/insights/${r.int(1, 300)}`, 12], [() => '/events', 8],
  [() => '/persons', 6], [() => '/funnels', 7], [() => '/retention', 4], [() => '/settings', 5], [() => '/billing', 3],
  [() => '/team', 3], [() => '/integrations', 3], [() => '/docs', 4], [() => '/pricing', 3], [() => '/', 6],
])
const MARKETING_CLICKS = ['Get started', 'Sign up', 'Pricing', 'Learn more', 'Book a demo', 'Docs', 'Log in', 'Read more']
const APP_CLICKS = [
  'Save', 'New insight', 'Add filter', 'Share', 'Export', 'Invite', 'Apply', 'Cancel',
  'Create dashboard', 'Run query',
]
const feature = weighted([
  ['dashboards', 22], ['insights', 20], ['funnels', 14], ['retention', 8], ['cohorts', 7], ['session_replay', 9],
  ['feature_flags', 8], ['experiments', 4], ['export', 5], ['sql', 3],
] as const)
const SIGNUP_METHODS = ['email', 'google', 'github']
const CANCEL_REASONS = ['too_expensive', 'missing_features', 'switched_tool', 'no_longer_needed']
const INDUSTRIES = ['SaaS', 'Fintech', 'E-commerce', 'Healthcare', 'Education', 'Media', 'Gaming', 'Logistics']
const COMPANY_PREFIXES = [
  'Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Wonka', 'Soylent', 'Cyberdyne',
  'Tyrell', 'Aperture', 'Vandelay', 'Oscorp', 'Massive', 'Nakatomi',
]
const COMPANY_SUFFIXES = ['Labs', 'Inc', 'Systems', 'Group', 'Analytics', 'Cloud', 'AI', 'Health', 'Pay', 'Logistics']
const FIRST_NAMES = [
  'Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances', 'Edsger',
  'Radia', 'Tim', 'Sophie', 'Yusuf', 'Priya', 'Mateo', 'Lena', 'Kofi', 'Mei', 'Olga', 'Diego',
  'Aisha', 'Noah', 'Hana',
]
const LAST_NAMES = [
  'Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Allen',
  'Dijkstra', 'Perlman', 'Berners-Lee', 'Wilson', 'Khan', 'Patel', 'Garcia', 'Schmidt', 'Mensah',
  'Chen', 'Ivanova', 'Silva', 'Okafor', 'Martin', 'Sato',
]
const EMAIL_DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'proton.me', 'icloud.com']

// ---------------------------------------------------------------------------------------------
// Behaviour: per-visit rates. Tuned so that, at the default size, $pageview is about half of all
// events, $autocapture about 16% and purchase about 1.8% (asserted by the tests).

/** Probability that leaving a page is recorded (closing the tab often is not). */
const P_PAGELEAVE = 0.5
const AUTOCAPTURE_PER_VISIT = 0.34
/** Signed-in visits only: anonymous visitors browse the marketing site and cannot use the product. */
const FEATURES_PER_VISIT = 0.2
const P_INVITE = 0.02
const P_PURCHASE = 0.069
const P_CANCEL = 0.006
const ANONYMOUS_EVENTS_PER_VISIT = 1 + P_PAGELEAVE + AUTOCAPTURE_PER_VISIT
const SIGNED_IN_EVENTS_PER_VISIT = ANONYMOUS_EVENTS_PER_VISIT + FEATURES_PER_VISIT + P_INVITE + P_PURCHASE + P_CANCEL

/**
 * Activity per active day is log-normal; with the spread of lifetimes this gives, at the default
 * size, a median of about 10 events per person and a top 1% holding about a third of all events.
 */
const ACTIVITY_SIGMA = 1.8
const P_PRESENT_AT_START = 0.3
const P_CHURN = 0.35
const MEAN_LIFETIME = 25 * DAY
const BASE_VISITS_PER_SESSION = 3
const MAX_VISITS_PER_SESSION = 60
const MAX_SESSIONS_PER_DAY = 6
const P_SIGNUP_IN_FIRST_SESSION = 0.55
const P_ONBOARDING = 0.7
/** People who never sign up: the share who look at /signup, and of those the share who start the form. */
const P_VISIT_SIGNUP = 0.35
const P_START_SIGNUP = 0.5
const P_NEW_DEVICE = 0.35
const P_THIRD_DEVICE = 0.25
const P_JOINS_COMPANY = 0.55
const PERSONS_PER_COMPANY = 40

/** Gaps inside a session stay well under the 30 minutes of idleness that end a session. */
const MAX_GAP = 20 * MINUTE
const ACTION_GAP = 40_000
const PAGELEAVE_GAP = 30_000
const NAVIGATION_GAP = 3_000
const SESSION_IDLE = 30 * MINUTE

// ---------------------------------------------------------------------------------------------
// Planning: who is active when, how much, and what happens to them. Read-only once built.

interface PersonPlan {
  /** Intensity position where the person's sessions begin (0 for people already around at the start). */
  readonly startPosition: number
  /** Position past which the person has churned (the timeline total when they have not). */
  readonly endPosition: number
  /** A newcomer's first session is at arrival; otherwise every session start is drawn. */
  readonly firstSessionAtStart: boolean
  readonly sessions: number
  readonly meanVisits: number
  /** Session index of the signup funnel; -1 when the person never goes near it. */
  readonly signupSession: number
  /** Steps reached: 1 /signup viewed, 2 signup_started, 3 signup (and $identify), 4 onboarding_completed. */
  readonly funnelReach: number
  /** Session indexes where a signed-in person shows up on a new device. */
  readonly newDeviceSessions: readonly number[]
  /** 1-based company number, or 0 for none. */
  readonly company: number
  readonly expectedEvents: number
}

interface Draft {
  readonly z: number
  readonly startPosition: number
  readonly endPosition: number
  readonly firstSessionAtStart: boolean
  readonly activeDays: number
  readonly identifies: boolean
  readonly eventsPerVisit: number
}

function planPersons(settings: Settings, timeline: Timeline): PersonPlan[] {
  const random = new Random(deriveSeed(settings.seed, 1))
  const drafts: Draft[] = []
  for (let i = 0; i < settings.persons; i++) {
    const z = random.normal()
    const presentAtStart = random.chance(P_PRESENT_AT_START)
    const startPosition = presentAtStart ? 0 : random.next() * timeline.total
    const startTime = timeline.timeAt(startPosition)
    const endTime = random.chance(P_CHURN)
      ? Math.min(settings.end, startTime + HOUR + random.exponential(MEAN_LIFETIME))
      : settings.end
    // Busier people sign up more often; the tiers average to about 40%.
    const identifies = random.chance(z > 1 ? 0.65 : z > 0 ? 0.5 : 0.25)
    drafts.push({
      z,
      startPosition,
      endPosition: timeline.positionOf(endTime),
      firstSessionAtStart: !presentAtStart,
      activeDays: Math.max((endTime - startTime) / DAY, 1 / 24),
      identifies,
      eventsPerVisit: identifies ? SIGNED_IN_EVENTS_PER_VISIT : ANONYMOUS_EVENTS_PER_VISIT,
    })
  }

  const companies = Math.max(3, Math.round(settings.persons / PERSONS_PER_COMPANY))
  const company = weighted(Array.from({ length: companies }, (_, i) => [i + 1, 1 / Math.pow(i + 1, 1.1)] as const))
  const outlines = drafts.map((draft) => outlineFunnel(random, draft))
  const extras = outlines.reduce((sum, outline) => sum + outline.extraEvents, 0)
  const scale = solveScale(drafts, Math.max(0, settings.targetEvents - extras))

  return drafts.map((draft, i) => {
    const outline = outlines[i] as FunnelOutline
    const budget = scale * Math.exp(ACTIVITY_SIGMA * draft.z) * draft.activeDays
    const shape = sessionShape(draft, budget)
    const sessions = Math.max(1, Math.min(maxSessions(draft), stochasticRound(random, shape.sessions)))
    const meanVisits = Math.min(MAX_VISITS_PER_SESSION, Math.max(1, budget / (sessions * draft.eventsPerVisit)))
    const signupSession = outline.funnelReach > 0 ? chooseSignupSession(random, sessions) : -1
    const newDeviceSessions: number[] = []
    if (draft.identifies) {
      let last = signupSession
      for (const p of [P_NEW_DEVICE, P_THIRD_DEVICE]) {
        if (sessions - 1 - last < 2 || !random.chance(p)) break
        last = random.int(last + 1, sessions - 1)
        newDeviceSessions.push(last)
      }
    }
    return Object.freeze({
      startPosition: draft.startPosition,
      endPosition: draft.endPosition,
      firstSessionAtStart: draft.firstSessionAtStart,
      sessions,
      meanVisits,
      signupSession,
      funnelReach: outline.funnelReach,
      newDeviceSessions,
      company: draft.identifies && random.chance(P_JOINS_COMPANY) ? company(random) : 0,
      expectedEvents: sessions * meanVisits * draft.eventsPerVisit + outline.extraEvents + 2 * newDeviceSessions.length,
    })
  })
}

interface FunnelOutline {
  readonly funnelReach: number
  /** Events of the funnel on top of the ordinary visits. */
  readonly extraEvents: number
}

function outlineFunnel(random: Random, draft: Draft): FunnelOutline {
  const funnelReach = draft.identifies
    ? random.chance(P_ONBOARDING) ? 4 : 3
    : random.chance(P_VISIT_SIGNUP) ? (random.chance(P_START_SIGNUP) ? 2 : 1) : 0
  // /signup pageview, signup_started, $identify + signup, /onboarding pageview + onboarding_completed
  const extraEvents = [0, 1, 2, 4, 6][funnelReach] ?? 0
  return { funnelReach, extraEvents }
}

function chooseSignupSession(random: Random, sessions: number): number {
  if (random.chance(P_SIGNUP_IN_FIRST_SESSION)) return 0
  return Math.min(sessions - 1, 1 + random.geometric(1.5))
}

function maxSessions(draft: Draft): number {
  return Math.max(1, Math.floor(draft.activeDays * MAX_SESSIONS_PER_DAY))
}

/** Sessions and visits per session for an event budget, before rounding. */
function sessionShape(draft: Draft, budget: number): { sessions: number; events: number } {
  const sessions = Math.max(1, Math.min(maxSessions(draft), budget / (BASE_VISITS_PER_SESSION * draft.eventsPerVisit)))
  const visits = Math.min(MAX_VISITS_PER_SESSION, Math.max(1, budget / (sessions * draft.eventsPerVisit)))
  return { sessions, events: sessions * visits * draft.eventsPerVisit }
}

/**
 * The factor turning relative activity into event budgets whose expected sum is `target`:
 * bisection, since the sum only grows with the factor.
 */
function solveScale(drafts: readonly Draft[], target: number): number {
  const weights = drafts.map((draft) => Math.exp(ACTIVITY_SIGMA * draft.z) * draft.activeDays)
  const expected = (scale: number): number =>
    drafts.reduce((sum, draft, i) => sum + sessionShape(draft, scale * (weights[i] as number)).events, 0)
  let lo = 0
  let hi = 1
  for (let i = 0; i < 64 && expected(hi) < target; i++) hi *= 2
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2
    if (expected(mid) < target) lo = mid
    else hi = mid
  }
  return hi
}

function stochasticRound(random: Random, x: number): number {
  const floor = Math.floor(x)
  return floor + (random.chance(x - floor) ? 1 : 0)
}

// ---------------------------------------------------------------------------------------------
// Generation: a queue of next-session times, drained one time slice at a time.

/** Events are sorted and released per slice; an hour keeps the buffer small even at 10M events. */
const SLICE = HOUR

interface Device {
  readonly anonId: string
  readonly deviceType: 'Desktop' | 'Mobile' | 'Tablet'
  readonly os: Os
  readonly browser: Browser
  readonly browserVersion: number
  identified: boolean
}

interface PersonState {
  readonly number: number
  readonly plan: PersonPlan
  sessionIndex: number
  position: number
  lastEventAt: number
  /** Empty until the first session. */
  readonly devices: Device[]
  country: string
  firstName: string
  lastName: string
  signedIn: boolean
  subscription: Plan
}

interface Pending {
  readonly at: number
  readonly event: SampleEvent
}

function* generateBatches(settings: Settings, timeline: Timeline, plans: readonly PersonPlan[]): Generator<SampleEvent[]> {
  const random = new Random(deriveSeed(settings.seed, 2))
  const writer = new SessionWriter(random, settings)
  const queue = new MinQueue(plans.length)
  const people = plans.map((plan, i): PersonState => {
    const position = plan.firstSessionAtStart
      ? plan.startPosition
      : nextPosition(random, plan.startPosition, plan.endPosition, plan.sessions)
    const at = timeline.timeAt(position)
    if (at < settings.end) queue.push(i, at)
    return {
      number: i + 1,
      plan,
      sessionIndex: 0,
      position,
      lastEventAt: -Infinity,
      devices: [],
      country: '',
      firstName: '',
      lastName: '',
      signedIn: false,
      subscription: 'free',
    }
  })

  let carry: Pending[] = []
  let batch: SampleEvent[] = []
  for (let sliceEnd = settings.start + SLICE; ; sliceEnd += SLICE) {
    const limit = Math.min(sliceEnd, settings.end)
    while (queue.size > 0 && queue.peekKey() < limit) {
      const at = queue.peekKey()
      const person = people[queue.pop()] as PersonState
      writer.writeSession(person, at)
      const next = scheduleNext(random, timeline, person)
      if (next < settings.end) queue.push(person.number - 1, next)
    }
    // Sessions that run past the slice leave their late events for the next one, which keeps the
    // batches in time order without holding more than about a slice of events.
    const pending = carry.length > 0 ? carry.concat(writer.take()) : writer.take()
    pending.sort((a, b) => a.at - b.at)
    let split = 0
    while (split < pending.length && (pending[split] as Pending).at < limit) {
      batch.push((pending[split] as Pending).event)
      split++
      if (batch.length === settings.batchSize) {
        yield batch
        batch = []
      }
    }
    carry = pending.slice(split)
    if (limit >= settings.end) break
  }
  if (batch.length > 0) yield batch
}

/** The smallest of `k` uniform draws on [from, to): the next of the remaining session starts, in order. */
function nextPosition(random: Random, from: number, to: number, k: number): number {
  return from + Math.max(0, to - from) * (1 - Math.pow(1 - random.next(), 1 / k))
}

/** Start of the person's next session, or Infinity when they have none left. */
function scheduleNext(random: Random, timeline: Timeline, person: PersonState): number {
  const { plan } = person
  const remaining = plan.sessions - person.sessionIndex
  if (remaining <= 0) return Infinity
  let position = nextPosition(random, person.position, plan.endPosition, remaining)
  let at = timeline.timeAt(position)
  // Two sessions closer than the idle timeout would be one session: push the next one back.
  const earliest = person.lastEventAt + SESSION_IDLE + MINUTE
  if (at < earliest) {
    at = earliest + Math.floor(random.exponential(HOUR))
    position = timeline.positionOf(at)
    if (position >= plan.endPosition) return Infinity
  }
  person.position = position
  return at
}

/** Writes the events of one session; the one place that knows what a visit looks like. */
class SessionWriter {
  readonly #random: Random
  readonly #settings: Settings
  readonly #announcedCompanies = new Set<number>()
  readonly #iso = new IsoFormatter()
  #pending: Pending[] = []
  // The session being written.
  #person!: PersonState
  #device!: Device
  #t = 0
  #sessionId = ''
  #referrer = ''
  #distinctId = ''
  #groups: Readonly<Record<string, string>> | undefined

  constructor(random: Random, settings: Settings) {
    this.#random = random
    this.#settings = settings
  }

  /** Events written since the last call, in no particular order. */
  take(): Pending[] {
    const pending = this.#pending
    this.#pending = []
    return pending
  }

  writeSession(person: PersonState, at: number): void {
    const random = this.#random
    const { plan } = person
    const index = person.sessionIndex
    if (index === 0) this.#introduce(person)
    let device = person.devices[person.devices.length - 1] as Device
    if (plan.newDeviceSessions.includes(index)) device = this.#newDevice(person, device.deviceType)
    else if (person.devices.length > 1 && random.chance(0.4)) device = random.pick(person.devices)

    this.#person = person
    this.#device = device
    this.#t = at
    this.#sessionId = uuidV7(at, random)
    this.#referrer = referringDomain(random)
    this.#refreshIdentity()

    const visits = 1 + random.geometric(plan.meanVisits - 1)
    this.#visit(true)
    if (index === plan.signupSession) this.#signupFunnel()
    if (person.signedIn && !device.identified) this.#logIn()
    for (let v = 1; v < visits; v++) this.#visit(false)

    person.sessionIndex++
    person.lastEventAt = this.#t
  }

  #introduce(person: PersonState): void {
    const random = this.#random
    person.country = country(random)
    person.firstName = random.pick(FIRST_NAMES)
    person.lastName = random.pick(LAST_NAMES)
    this.#newDevice(person, undefined)
  }

  #newDevice(person: PersonState, avoid: Device['deviceType'] | undefined): Device {
    const random = this.#random
    let type = deviceType(random)
    // A second device is usually a different kind: the phone after the laptop.
    if (type === avoid) type = type === 'Desktop' ? 'Mobile' : 'Desktop'
    const os = osFor[type](random)
    const browser = browserFor[os](random)
    const [lowest, newest] = BROWSER_VERSIONS[browser]
    const device: Device = {
      anonId: `anon-${random.hex(16)}`,
      deviceType: type,
      os,
      browser,
      browserVersion: random.int(lowest, newest),
      identified: false,
    }
    person.devices.push(device)
    return device
  }

  #refreshIdentity(): void {
    const person = this.#person
    const device = this.#device
    this.#distinctId = device.identified ? `user-${person.number}` : device.anonId
    this.#groups =
      device.identified && person.plan.company > 0 ? Object.freeze({ company: `company-${person.plan.company}` }) : undefined
  }

  /** Properties every event of the session carries, as a fresh object the caller may add to. */
  #common(): Record<string, unknown> {
    const device = this.#device
    // One object literal of fixed shape: spreading a shared base object per event was the
    // generator's main cost.
    const properties: Record<string, unknown> = {
      $session_id: this.#sessionId,
      $browser: device.browser,
      $browser_version: device.browserVersion,
      $os: device.os,
      $device_type: device.deviceType,
      $geoip_country_code: this.#person.country,
      $referring_domain: this.#referrer,
    }
    if (this.#groups !== undefined) properties.$groups = this.#groups
    return properties
  }

  #emit(event: string, properties: Record<string, unknown>): void {
    // Sessions cut by the end of the window lose their tail, as real data does.
    if (this.#t >= this.#settings.end) return
    this.#pending.push({
      at: this.#t,
      event: { event, distinctId: this.#distinctId, timestamp: this.#iso.format(this.#t), properties },
    })
  }

  #advance(mean: number): void {
    this.#t += 1 + Math.floor(Math.min(MAX_GAP, this.#random.exponential(mean)))
  }

  #page(pathname: string): Record<string, unknown> {
    const properties = this.#common()
    properties.$current_url = `https://app.example.com${pathname}`
    properties.$pathname = pathname
    properties.$host = 'app.example.com'
    return properties
  }

  #pageview(pathname: string, landing: boolean): void {
    const random = this.#random
    const properties = this.#page(pathname)
    properties.load_time_ms = Math.round(random.logNormal(Math.log(650), 0.6))
    const utm = landing ? UTM_FOR_DOMAIN[this.#referrer] : undefined
    if (utm !== undefined && random.chance(utm[2])) {
      const [source, medium] = utm
      const campaign = random.pick(CAMPAIGNS)
      properties.$current_url = `${String(properties.$current_url)}?utm_source=${source}&utm_medium=${medium}&utm_campaign=${campaign}`
      properties.utm_source = source
      properties.utm_medium = medium
      properties.utm_campaign = campaign
    }
    this.#emit('$pageview', properties)
  }

  #visit(landing: boolean): void {
    const random = this.#random
    const signedIn = this.#device.identified
    if (!landing) this.#advance(NAVIGATION_GAP)
    const pathname = (signedIn ? appPath(random) : marketingPath(random))(random)
    this.#pageview(pathname, landing)
    for (let n = random.geometric(AUTOCAPTURE_PER_VISIT); n > 0; n--) {
      this.#advance(ACTION_GAP)
      const text = random.pick(signedIn ? APP_CLICKS : MARKETING_CLICKS)
      const properties = this.#page(pathname)
      properties.$event_type = 'click'
      properties.$el_text = text
      this.#emit('$autocapture', properties)
    }
    if (signedIn) this.#productActions()
    if (random.chance(P_PAGELEAVE)) {
      this.#advance(PAGELEAVE_GAP)
      this.#emit('$pageleave', this.#page(pathname))
    }
  }

  #productActions(): void {
    const random = this.#random
    const person = this.#person
    for (let n = random.geometric(FEATURES_PER_VISIT); n > 0; n--) {
      this.#advance(ACTION_GAP)
      const properties = this.#common()
      properties.feature = feature(random)
      this.#emit('feature_used', properties)
    }
    if (random.chance(P_INVITE)) {
      this.#advance(ACTION_GAP)
      this.#emit('invite_sent', Object.assign(this.#common(), { invitee_role: random.chance(0.8) ? 'member' : 'admin' }))
    }
    if (random.chance(P_PURCHASE)) {
      this.#advance(ACTION_GAP)
      const upgrade = person.subscription === 'free'
      if (upgrade) person.subscription = upgradePlan(random)
      const plan = person.subscription
      const amount = upgrade || random.chance(0.7) ? PRICES[plan] : random.pick(ADD_ON_PRICES)
      const currency = person.country === 'GB' ? 'GBP' : EURO_COUNTRIES.has(person.country) ? 'EUR' : 'USD'
      const properties = Object.assign(this.#common(), { amount, currency, plan })
      if (upgrade) properties.$set = { plan }
      this.#emit('purchase', properties)
    }
    if (person.subscription !== 'free' && random.chance(P_CANCEL)) {
      this.#advance(ACTION_GAP)
      const plan = person.subscription
      person.subscription = 'free'
      const reason = random.pick(CANCEL_REASONS)
      this.#emit('subscription_cancelled', Object.assign(this.#common(), { plan, reason, $set: { plan: 'free' } }))
    }
  }

  #signupFunnel(): void {
    const random = this.#random
    const person = this.#person
    const reach = person.plan.funnelReach
    if (reach < 1 || this.#device.identified) return
    this.#advance(NAVIGATION_GAP)
    this.#pageview('/signup', false)
    if (reach < 2) return
    this.#advance(ACTION_GAP)
    const method = random.pick(SIGNUP_METHODS)
    this.#emit('signup_started', Object.assign(this.#common(), { signup_method: method }))
    if (reach < 3) return

    this.#advance(ACTION_GAP)
    const anonId = this.#device.anonId
    person.signedIn = true
    person.subscription = signupPlan(random)
    this.#device.identified = true
    this.#refreshIdentity()
    const name = `${person.firstName} ${person.lastName}`
    const company = person.plan.company
    const domain = company > 0 ? `${companyName(company).toLowerCase().replace(/[^a-z0-9]/g, '')}.com` : random.pick(EMAIL_DOMAINS)
    const email = `${person.firstName}.${person.lastName}${person.number}@${domain}`.toLowerCase()
    this.#emit('$identify', Object.assign(this.#common(), {
      $anon_distinct_id: anonId,
      $set: { email, name, plan: person.subscription },
      $set_once: { first_seen_country: person.country },
    }))
    if (company > 0 && !this.#announcedCompanies.has(company)) {
      this.#announcedCompanies.add(company)
      this.#advance(1_000)
      this.#emit('$groupidentify', {
        $session_id: this.#sessionId,
        $group_type: 'company',
        $group_key: `company-${company}`,
        $group_set: companyProperties(this.#settings.seed, company),
      })
    }
    this.#advance(1_000)
    this.#emit('signup', Object.assign(this.#common(), { signup_method: method, plan: person.subscription }))
    if (reach < 4) return
    this.#advance(NAVIGATION_GAP)
    this.#pageview('/onboarding', false)
    this.#advance(2 * MINUTE)
    this.#emit('onboarding_completed', Object.assign(this.#common(), { steps_completed: random.int(3, 5) }))
  }

  /** A signed-up person on a new device: anonymous until they log in, then merged by $identify. */
  #logIn(): void {
    this.#advance(NAVIGATION_GAP)
    this.#pageview('/login', false)
    this.#advance(ACTION_GAP)
    const anonId = this.#device.anonId
    this.#device.identified = true
    this.#refreshIdentity()
    this.#emit('$identify', Object.assign(this.#common(), { $anon_distinct_id: anonId }))
  }
}

/**
 * `new Date(ms).toISOString()`, about three times faster: the date part is cached, since
 * consecutive events almost always fall on the same day. Formatting was a third of the run time.
 */
class IsoFormatter {
  #day = Number.NaN
  #prefix = ''

  format(ms: number): string {
    const day = Math.floor(ms / DAY)
    if (day !== this.#day) {
      this.#day = day
      this.#prefix = new Date(day * DAY).toISOString().slice(0, 11)
    }
    const rest = ms - day * DAY
    const hours = Math.floor(rest / HOUR)
    const minutes = Math.floor((rest % HOUR) / MINUTE)
    const seconds = Math.floor((rest % MINUTE) / 1000)
    const millis = rest % 1000
    return `${this.#prefix}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`
  }
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`
}

function companyName(company: number): string {
  const prefix = COMPANY_PREFIXES[(company - 1) % COMPANY_PREFIXES.length] as string
  const round = Math.floor((company - 1) / COMPANY_PREFIXES.length)
  const suffix = COMPANY_SUFFIXES[round % COMPANY_SUFFIXES.length] as string
  const lap = Math.floor(round / COMPANY_SUFFIXES.length)
  return lap === 0 ? `${prefix} ${suffix}` : `${prefix} ${suffix} ${lap + 1}`
}

/** Depends on the seed and the company only, not on who signed up first. */
function companyProperties(seed: number, company: number): Record<string, unknown> {
  const random = new Random(deriveSeed(seed, 3, company))
  return {
    name: companyName(company),
    industry: random.pick(INDUSTRIES),
    seats: Math.min(10_000, Math.round(random.pareto(5, 1.1))),
  }
}

/** A UUIDv7-shaped session id (time-ordered, like posthog-js makes), drawn from the seeded source. */
function uuidV7(at: number, random: Random): string {
  const time = at.toString(16).padStart(12, '0')
  const bits = random.hex(19)
  const variant = '89ab'[Number.parseInt(bits.charAt(3), 16) & 3] as string
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${bits.slice(0, 3)}-${variant}${bits.slice(4, 7)}-${bits.slice(7, 19)}`
}

/** Binary min-heap of person indexes keyed by their next session start; ties pop in no set order, but always the same one. */
class MinQueue {
  readonly #items: Int32Array
  readonly #keys: Float64Array
  size = 0

  constructor(capacity: number) {
    this.#items = new Int32Array(capacity)
    this.#keys = new Float64Array(capacity)
  }

  peekKey(): number {
    return this.#keys[0] as number
  }

  push(item: number, key: number): void {
    let i = this.size++
    while (i > 0) {
      const parent = (i - 1) >>> 1
      if ((this.#keys[parent] as number) <= key) break
      this.#items[i] = this.#items[parent] as number
      this.#keys[i] = this.#keys[parent] as number
      i = parent
    }
    this.#items[i] = item
    this.#keys[i] = key
  }

  pop(): number {
    const top = this.#items[0] as number
    const lastItem = this.#items[--this.size] as number
    const lastKey = this.#keys[this.size] as number
    let i = 0
    for (;;) {
      let child = 2 * i + 1
      if (child >= this.size) break
      if (child + 1 < this.size && (this.#keys[child + 1] as number) < (this.#keys[child] as number)) child++
      if ((this.#keys[child] as number) >= lastKey) break
      this.#items[i] = this.#items[child] as number
      this.#keys[i] = this.#keys[child] as number
      i = child
    }
    this.#items[i] = lastItem
    this.#keys[i] = lastKey
    return top
  }
}

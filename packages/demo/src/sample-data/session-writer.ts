import type { Random } from '../random.js'
import { companyDomain, companyProperties } from './catalog/companies.js'
import { country, currencyOf } from './catalog/countries.js'
import { drawDevice, type Device, type DeviceType } from './catalog/devices.js'
import { APP_CLICKS, MARKETING_CLICKS, appPath, marketingPath } from './catalog/pages.js'
import { EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES } from './catalog/people.js'
import { SIGNUP_METHODS, feature } from './catalog/product.js'
import { ADD_ON_PRICES, CANCEL_REASONS, PRICES, signupPlan, upgradePlan } from './catalog/subscriptions.js'
import { CAMPAIGNS, UTM_FOR_DOMAIN, referringDomain } from './catalog/traffic-sources.js'
import { IsoFormatter } from './iso-formatter.js'
import type { PersonState } from './person-state.js'
import type { SampleEvent } from './sample-event.js'
import { ACTION_GAP, MAX_GAP, NAVIGATION_GAP, PAGELEAVE_GAP } from './session-gaps.js'
import type { Settings } from './settings.js'
import { MINUTE } from './time.js'
import { uuidV7 } from './uuid-v7.js'
import { AUTOCAPTURE_PER_VISIT, FEATURES_PER_VISIT, P_CANCEL, P_INVITE, P_PAGELEAVE, P_PURCHASE } from './visit-rates.js'

/** A written event with its instant, for sorting. */
export interface Pending {
  readonly at: number
  readonly event: SampleEvent
}

/** Writes the events of one session; the one place that knows what a visit looks like. */
export class SessionWriter {
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

  #newDevice(person: PersonState, avoid: DeviceType | undefined): Device {
    const device = drawDevice(this.#random, avoid)
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
      const currency = currencyOf(person.country)
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
    const domain = company > 0 ? companyDomain(company) : random.pick(EMAIL_DOMAINS)
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

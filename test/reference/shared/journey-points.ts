/**
 * Lays generated journeys out in time: each journey starts at `start`, its
 * walks follow one another `pause` grid points apart, and each event comes
 * `gap` points after the one before. Shared by the funnel generators
 * (test/funnels/support/arbitraries.ts, funnel-oracle-arbitraries.ts).
 */
export interface Journey<E extends { readonly gap: number }> {
  readonly start: number
  readonly pause: number
  readonly walks: ReadonlyArray<ReadonlyArray<E>>
}

/** Every event of `journeys` with its grid point, journey by journey, in walk order. */
export function journeyPoints<J extends Journey<{ readonly gap: number }>>(journeys: ReadonlyArray<J>): Array<{ journey: J; event: J['walks'][number][number]; point: number }> {
  const out: Array<{ journey: J; event: J['walks'][number][number]; point: number }> = []
  for (const journey of journeys) {
    let point = journey.start
    journey.walks.forEach((walk, w) => {
      if (w > 0) point += journey.pause
      for (const event of walk) {
        point += event.gap
        out.push({ journey, event, point })
      }
    })
  }
  return out
}

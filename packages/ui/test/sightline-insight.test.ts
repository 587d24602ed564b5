// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest'
import { defineSightlineInsight, type PersonsSelection, type SightlineSelectEvent } from '../src/browser/index.js'
import answers from './answers.json' with { type: 'json' }

describe('<sightline-insight>', () => {
  test('draws its answer once connected, redraws on a new one, and dispatches sightline-select', () => {
    defineSightlineInsight()
    defineSightlineInsight() // a second call is harmless
    const element = document.createElement('sightline-insight') as HTMLElement & { answer: unknown; options: object }
    element.answer = answers.funnel
    expect(element.childElementCount).toBe(0) // not in the document yet: nothing drawn
    document.body.append(element)
    expect(element.querySelector('[data-view]')?.getAttribute('data-view')).toBe('funnel-steps')

    const picked: PersonsSelection[] = []
    document.body.addEventListener('sightline-select', (e) => picked.push((e as SightlineSelectEvent).detail))
    element.querySelector<HTMLButtonElement>('tbody button')!.click()
    expect(picked).toEqual([{ title: 'persons who reached 1. $pageview', url: answers.funnel.result[0]!.converted_people_url }])

    element.answer = answers.retention
    expect(element.querySelector('[data-view]')?.getAttribute('data-view')).toBe('retention')
    element.options = { filters: { insight: 'TRENDS', display: 'ActionsTable' } }
    element.answer = answers.trend
    expect(element.querySelector('[data-view]')?.getAttribute('data-view')).toBe('trends-table')
    element.remove()
  })
})

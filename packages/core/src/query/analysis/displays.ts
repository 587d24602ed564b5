/** Displays drawn over time: one value per bucket. */
export const TIME_SERIES_DISPLAYS = ['ActionsLineGraph', 'ActionsLineGraphCumulative', 'ActionsBar', 'ActionsAreaGraph', 'ActionsStackedBar'] as const
/** Displays of one value per series over the whole range (`aggregated_value`). */
export const TOTAL_VALUE_DISPLAYS = ['ActionsPie', 'ActionsTable', 'ActionsBarValue', 'WorldMap', 'BoldNumber'] as const

export type Display = (typeof TIME_SERIES_DISPLAYS)[number] | (typeof TOTAL_VALUE_DISPLAYS)[number]
export const DISPLAYS: ReadonlyArray<Display> = [...TIME_SERIES_DISPLAYS, ...TOTAL_VALUE_DISPLAYS]

export const isDisplay = (d: string): d is Display => (DISPLAYS as ReadonlyArray<string>).includes(d)
export const isTotalValueDisplay = (d: Display): boolean => (TOTAL_VALUE_DISPLAYS as ReadonlyArray<string>).includes(d)

import answers from './answers.json' with { type: 'json' }

/** A breakdown by `$geoip_country_code`, as the engine answers a total-value trend (answers.trendPie's series, other values). */
export function countryAnswer(values: ReadonlyArray<readonly [unknown, number]>) {
  const [template] = answers.trendPie.result
  return {
    ...answers.trendPie,
    result: values.map(([code, total]) => ({ ...template!, label: String(code), breakdown_value: code, aggregated_value: total, persons: { url: `/api/projects/1/persons/trends/?breakdown_value=${String(code)}` } })),
  }
}

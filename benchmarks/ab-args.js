// The command line of the A/B tools (funnel-ab.js, trend-ab.js): two builds, the data they share, rounds.
import { parseArgs } from 'node:util'

/**
 * `--old DIR --new DIR` (checkouts with their dist/ built) and `--duckdb FILE` or `--pg-schema NAME`;
 * `--project` (default 1), `--rounds` (default 5), `--only REGEX`, `--dump FILE`. Throws without the required ones.
 */
export function abArgs() {
  const { values } = parseArgs({
    options: {
      old: { type: 'string' },
      new: { type: 'string' },
      duckdb: { type: 'string' },
      'pg-schema': { type: 'string' },
      project: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '5' },
      only: { type: 'string' },
      dump: { type: 'string' },
    },
  })
  if (!values.old || !values.new || (!values.duckdb && !values['pg-schema'])) throw new Error('--old DIR --new DIR and --duckdb FILE or --pg-schema NAME')
  return values
}

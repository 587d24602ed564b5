#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { runDemo } from './demo-command.js'

const usage = `Usage: sightline demo [--path FILE] [--events N] [--persons N]

  demo     create a DuckDB file with 90 days of sample product data and print a summary
`

const positiveInt = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(value)}`)
  return n
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { path: { type: 'string' }, events: { type: 'string' }, persons: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  const [command = 'demo'] = positionals
  if (values.help) return void process.stdout.write(usage)
  if (command === 'demo') {
    return runDemo({ path: values.path, events: positiveInt('events', values.events), persons: positiveInt('persons', values.persons) })
  }
  throw new Error(`unknown command ${JSON.stringify(command)}\n\n${usage}`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`sightline: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
})

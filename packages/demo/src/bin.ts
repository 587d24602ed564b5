#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { runDemo } from './demo-command.js'
import { runServe } from './serve-command.js'

const usage = `Usage:
  sightline demo  [--path FILE] [--events N] [--persons N] [--port N] [--no-serve]
      create a DuckDB file with 90 days of sample product data, print a summary, serve the API
      and the insights page at / (sign in with the key it prints);
      --events or --persons alone sets the other at 60 events per person (default 300,000 and 5,000)
  sightline serve [--port N] [--host H] [--storage duckdb:<path>|postgres:<url>|clickhouse:<dir>|clickhouse:http://host:port]
                  [--companion duckdb:<path>|postgres:<url>] [--api-key phx_... | --create-key USER_ID]
      serve the API and the insights page (at /) over a storage. On an empty database it creates a user and prints a new key once
      (with --api-key, the user holds that key instead); --create-key prints a new key for an existing user.
      With a ClickHouse server, --companion holds everything but events (default duckdb:.sightline/clickhouse-companion.duckdb)
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
    options: {
      path: { type: 'string' },
      events: { type: 'string' },
      persons: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      storage: { type: 'string' },
      companion: { type: 'string' },
      'api-key': { type: 'string' },
      'create-key': { type: 'string' },
      'no-serve': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const [command = 'demo'] = positionals
  if (values.help) return void process.stdout.write(usage)
  const port = values.port === undefined ? undefined : values.port === '0' ? 0 : positiveInt('port', values.port)
  if (command === 'demo') {
    return runDemo({
      path: values.path,
      events: positiveInt('events', values.events),
      persons: positiveInt('persons', values.persons),
      serve: !values['no-serve'],
      port,
    })
  }
  if (command === 'serve') {
    return runServe({
      port,
      host: values.host,
      storage: values.storage,
      companion: values.companion,
      apiKey: values['api-key'],
      createKeyFor: positiveInt('create-key', values['create-key']),
    })
  }
  throw new Error(`unknown command ${JSON.stringify(command)}\n\n${usage}`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`sightline: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
})

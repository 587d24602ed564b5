import type { Expression } from 'kysely'
import { HogqlError, isNode, type HogqlNode } from './hogql-node.js'
import { make, type Ctx, type Value } from './value.js'

const GROUP_KEY = /^\$group_([0-4])$/
const GROUP = /^group_([0-4])$/
const INDEXED_ONLY = "is not supported: only properties['key'] can be indexed"

/**
 * A `Field` node: a column of the scope or a top-level property. Chains are
 * matched whole against a fixed list; names never reach SQL, property keys
 * only as bound parameters (`SqlHooks.jsonText`).
 */
export function compileField(node: HogqlNode, ctx: Ctx): Value {
  const parts = chainOf(node)
  if (!parts) throw new HogqlError('is not a supported field', node)
  if (parts.length >= 2) {
    const json = propertiesOf(parts.slice(0, -1), node, ctx)
    if (json) return property(json, parts[parts.length - 1]!, ctx)
  }
  if (parts.length === 1) return column(parts[0]!, node, ctx)
  if (parts.length === 2 && parts[0] === 'person' && parts[1] === 'id') return column('person_id', node, ctx)
  const nested = parts.length > 2 && (parts[0] === 'properties' || parts[1] === 'properties')
  throw new HogqlError(nested ? "reads a nested property, which is not supported (use properties['a.b'] for a key with a dot)" : 'is not a field this query can read', node)
}

/** `properties['key']`, `person.properties['key']`: an `ArrayAccess` on a properties object with a string literal. */
export function compileArrayAccess(node: HogqlNode, ctx: Ctx): Value {
  const target = node.array
  const key = node.property
  const parts = isNode(target) && target.node === 'Field' ? chainOf(target) : undefined
  const json = parts ? propertiesOf(parts, node, ctx) : undefined
  if (!json) throw new HogqlError(INDEXED_ONLY, node)
  if (!isNode(key) || key.node !== 'Constant' || typeof key.value !== 'string') throw new HogqlError('needs a string literal key', node)
  return property(json, key.value, ctx)
}

function chainOf(node: HogqlNode): string[] | undefined {
  const chain = node.chain
  if (!Array.isArray(chain) || chain.length === 0) return undefined
  return chain.every((part) => typeof part === 'string' || typeof part === 'number') ? chain.map(String) : undefined
}

// The events' own properties go through the scope's readers, which pick a materialized column where there is one.
function property(json: Expression<unknown>, key: string, ctx: Ctx): Value {
  const { scope } = ctx
  if (json !== scope.event) return make('unknown', scope.hooks.jsonText(json, key), 1)
  const text = scope.eventProperty ? scope.eventProperty(key) : scope.hooks.jsonText(json, key)
  return make('unknown', text, 1, scope.eventNumber ? { number: scope.eventNumber(key) } : {})
}

/**
 * The JSON column a properties chain names (`properties`, `person.properties`,
 * `group_N.properties`), undefined when the chain names none; throws when it
 * names one the scope does not have.
 */
function propertiesOf(parts: ReadonlyArray<string>, node: HogqlNode, ctx: Ctx): Expression<unknown> | undefined {
  const { scope } = ctx
  const missing = (what: string): never => {
    throw new HogqlError(`reads ${what}, which this query cannot read`, node)
  }
  if (parts.length === 1 && parts[0] === 'properties') return scope.event
  if (parts.length === 2 && parts[0] === 'person' && parts[1] === 'properties') return scope.person ?? missing('person properties')
  const group = parts.length === 2 && parts[1] === 'properties' ? GROUP.exec(parts[0]!) : null
  if (group) return scope.groups?.[Number(group[1])] ?? missing(`the properties of group type ${group[1]}`)
  return undefined
}

function column(name: string, node: HogqlNode, ctx: Ctx): Value {
  const { scope } = ctx
  const missing = (): never => {
    throw new HogqlError(`reads ${name}, which this query cannot read`, node)
  }
  switch (name) {
    case 'event':
      return make('string', scope.eventName, 1)
    case 'timestamp':
      return make('datetime', scope.timestamp, 1, { temporal: 'datetime64' })
    case 'distinct_id':
      return make('string', scope.distinctId, 1)
    case 'person_id':
      return make('string', scope.personId ?? missing(), 1)
    case 'elements_chain':
      return make('string', scope.elementsChain ?? missing(), 1)
    case '$session_id':
      return make('string', scope.sessionId ?? missing(), 1)
    case 'properties':
    case 'person':
      throw new HogqlError(`reads the whole ${name} object; name one property, such as properties.$browser`, node)
  }
  const group = GROUP_KEY.exec(name)
  if (group) return make('string', scope.groupKeys?.[Number(group[1])] ?? missing(), 1)
  throw new HogqlError('is not a field this query can read', node)
}

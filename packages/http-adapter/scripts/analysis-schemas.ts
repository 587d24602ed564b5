/**
 * Generates src/wire/analysis-schemas.generated.ts: the JSON Schemas of the
 * analyses' parameters and results, read from core's exported TypeScript
 * types (`FunnelParams`, `FunnelResponse`, ...) by the TypeScript checker, so
 * the OpenAPI document and the library's types have one source. Run after
 * changing those types:
 *
 *   node --import tsx packages/http-adapter/scripts/analysis-schemas.ts
 *
 * test/analysis-schemas.test.ts fails while the committed file differs from
 * what this generates.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
// Core's sources, not its build: the script runs before any build (node --import tsx).
import { ANALYSES } from '../../core/src/query/analysis/analyses.js'

type Json = { [key: string]: unknown }

const HERE = dirname(fileURLToPath(import.meta.url))
const CORE_SRC = join(HERE, '../../core/src')
export const GENERATED_FILE = join(HERE, '../src/wire/analysis-schemas.generated.ts')

/**
 * Per analysis of core's registry (`ANALYSES`): its parameters (a POST body,
 * a GET query), its answer and its persons list's parameters; then the
 * actor of every persons list.
 */
export const ANALYSIS_ROOTS: ReadonlyArray<string> = [
  ...ANALYSES.flatMap((a) => [a.types.params, a.types.response, a.persons.paramsType]),
  // A person, personless distinct id or group of a persons list.
  'TrendActor',
]

/** Parameter roots are open: PostHog clients send keys an analysis does not read, which it ignores. */
const isParams = (name: string): boolean => name.endsWith('Params')

const REF = '#/components/schemas/'
/** Types an alias never names in the document (`type X = string` does not make every string an X). */
const PLAIN = ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never | ts.TypeFlags.String | ts.TypeFlags.Number | ts.TypeFlags.Boolean | ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Literal

/**
 * The JSON Schemas (draft 2020-12, OpenAPI 3.1) of `ANALYSIS_ROOTS` and of
 * the named types of core's entry point they use, keyed by exported name.
 * Nested objects are closed (`additionalProperties: false`) as the
 * TypeScript types are; refs point into `components.schemas`.
 */
export function generateAnalysisSchemas(): Record<string, Json> {
  const rootsFile = join(CORE_SRC, '__openapi_roots__.ts')
  const rootsText = [
    `import type { ${ANALYSIS_ROOTS.join(', ')} } from './index.js'`,
    `export interface Roots { ${ANALYSIS_ROOTS.map((n) => `${n}: ${n}`).join('; ')} }`,
  ].join('\n')
  const config = ts.getParsedCommandLineOfConfigFile(join(CORE_SRC, '../tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')) } })
  if (!config) throw new Error('cannot read core/tsconfig.json')
  const options: ts.CompilerOptions = { ...config.options, composite: false, declaration: false, declarationMap: false, sourceMap: false, noEmit: true, incremental: false }
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, language, onError, create) =>
    fileName === rootsFile ? ts.createSourceFile(fileName, rootsText, language) : getSourceFile(fileName, language, onError, create)
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (fileName) => fileName === rootsFile || fileExists(fileName)
  const program = ts.createProgram({ rootNames: [rootsFile], options, host })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(rootsFile)!
  const diagnostics = ts.getPreEmitDiagnostics(program, source)
  if (diagnostics.length > 0) throw new Error(ts.formatDiagnostics(diagnostics, host))

  // The named types of core's entry point: their declarations' symbols, by exported name.
  const index = program.getSourceFile(join(CORE_SRC, 'index.ts'))!
  const exported = new Map<ts.Symbol, string>()
  // Aliases of types that have no name of their own (`type EntityParams = typeof EntityInput.Encoded`): by the type itself.
  const exportedTypes = new Map<ts.Type, string>()
  for (const s of checker.getExportsOfModule(checker.getSymbolAtLocation(index)!)) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s
    if (!(target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))) continue
    exported.set(target, s.name)
    const declared = checker.getDeclaredTypeOfSymbol(target)
    const generic = target.declarations?.some((d) => (ts.isTypeAliasDeclaration(d) || ts.isInterfaceDeclaration(d)) && d.typeParameters?.length)
    if (!generic && !(declared.flags & PLAIN) && !exportedTypes.has(declared)) exportedTypes.set(declared, s.name)
  }

  const definitions: Record<string, Json> = {}
  const expanding = new Set<ts.Type>()
  const docOf = (s: ts.Symbol | undefined): string => (s ? ts.displayPartsToString(s.getDocumentationComment(checker)).trim() : '')
  const withDoc = (schema: Json, doc: string): Json => (doc ? { description: doc, ...schema } : schema)

  /** The exported name a type is referred to by, when it is one of the entry point's named types (not a generic instance). */
  function nameOf(t: ts.Type): string | undefined {
    if (t.aliasSymbol && !t.aliasTypeArguments?.length && exported.has(t.aliasSymbol)) return exported.get(t.aliasSymbol)
    const s = t.getSymbol()
    if (s && s.flags & ts.SymbolFlags.Interface && !(t as ts.TypeReference).typeArguments?.length && exported.has(s)) return exported.get(s)
    return exportedTypes.get(t)
  }

  function define(name: string, t: ts.Type, open: boolean): void {
    if (name in definitions) return
    definitions[name] = {} // a placeholder: recursive types refer to themselves
    const symbol = t.aliasSymbol ?? t.getSymbol()
    definitions[name] = withDoc(expand(t, open), docOf(symbol))
  }

  function schemaOf(t: ts.Type): Json {
    const name = nameOf(t)
    if (name !== undefined) {
      define(name, t, false)
      return { $ref: REF + name }
    }
    if (expanding.has(t)) throw new Error(`${checker.typeToString(t)} is recursive: export it from core's index.ts so it can be named`)
    expanding.add(t)
    try {
      return expand(t, false)
    } finally {
      expanding.delete(t)
    }
  }

  function expand(t: ts.Type, open: boolean): Json {
    const f = t.flags
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {}
    if (f & ts.TypeFlags.Never) return { not: {} }
    if (f & ts.TypeFlags.Null) return { type: 'null' }
    if (f & ts.TypeFlags.StringLiteral) return { type: 'string', const: (t as ts.StringLiteralType).value }
    if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', const: (t as ts.NumberLiteralType).value }
    if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: (t as unknown as { intrinsicName: string }).intrinsicName === 'true' }
    if (f & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) return { type: 'string' }
    if (f & ts.TypeFlags.Number) return { type: 'number' }
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' }
    if (t.isUnion()) return union(t.types)
    if (checker.isTupleType(t)) {
      const target = (t as ts.TypeReference).target as ts.TupleType
      const items = checker.getTypeArguments(t as ts.TypeReference)
      const fixed = target.elementFlags.filter((e) => !(e & ts.ElementFlags.Variable)).length
      const rest = target.elementFlags.findIndex((e) => e & ts.ElementFlags.Variable)
      return {
        type: 'array',
        prefixItems: items.slice(0, fixed).map(schemaOf),
        items: rest >= 0 ? schemaOf(items[rest]!) : false,
        minItems: target.minLength,
        ...(rest < 0 && { maxItems: fixed }),
      }
    }
    if (checker.isArrayType(t)) {
      const item = checker.getTypeArguments(t as ts.TypeReference)[0]!
      // `never[]` (a funnel step's `people`): always empty.
      return item.flags & ts.TypeFlags.Never ? { type: 'array', maxItems: 0 } : { type: 'array', items: schemaOf(item) }
    }
    if (f & ts.TypeFlags.Object || t.isIntersection()) return object(t, open)
    throw new Error(`no JSON Schema for ${checker.typeToString(t)}`)
  }

  function union(members: ReadonlyArray<ts.Type>): Json {
    const kept = members.filter((m) => !(m.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)))
    const booleans = kept.filter((m) => m.flags & ts.TypeFlags.BooleanLiteral)
    const rest = booleans.length === 2 ? kept.filter((m) => !(m.flags & ts.TypeFlags.BooleanLiteral)) : kept
    const schemas = [...(booleans.length === 2 ? [{ type: 'boolean' }] : []), ...rest.map(schemaOf)]
    // Literals of one type, and null, as an enum (`'day' | 'week' | null`).
    const literal = (s: Json) => 'const' in s || (s.type === 'null' && Object.keys(s).length === 1)
    if (schemas.length > 1 && schemas.every(literal)) {
      const types = [...new Set(schemas.map((s) => s.type as string))]
      return { type: types.length === 1 ? types[0] : types, enum: schemas.map((s) => ('const' in s ? s.const : null)) }
    }
    // Plain types (`string | null`) as a list of types.
    if (schemas.length > 1 && schemas.every((s) => Object.keys(s).length === 1 && typeof s.type === 'string')) return { type: [...new Set(schemas.map((s) => s.type as string))] }
    return schemas.length === 1 ? schemas[0]! : { anyOf: schemas }
  }

  function object(t: ts.Type, open: boolean): Json {
    if (t.getCallSignatures().length > 0) throw new Error(`a function has no JSON Schema: ${checker.typeToString(t)}`)
    const properties: Record<string, Json> = {}
    const required: string[] = []
    for (const p of checker.getPropertiesOfType(t)) {
      const optional = (p.flags & ts.SymbolFlags.Optional) !== 0
      // An optional property's `| undefined` is dropped by union(): absent, not a value.
      properties[p.name] = withDoc(schemaOf(checker.getTypeOfSymbol(p)), docOf(p))
      if (!optional) required.push(p.name)
    }
    const indexes = checker.getIndexInfosOfType(t).filter((i) => i.keyType.flags & ts.TypeFlags.String)
    const additional = indexes.length > 0 ? schemaOf(indexes[0]!.type) : open ? undefined : false
    return {
      type: 'object',
      ...(Object.keys(properties).length > 0 && { properties }),
      ...(required.length > 0 && { required }),
      ...(additional !== undefined && { additionalProperties: additional }),
    }
  }

  const roots = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation((source.statements[1] as ts.InterfaceDeclaration).name)!)
  for (const name of ANALYSIS_ROOTS) {
    const property = checker.getPropertyOfType(roots, name)!
    const type = checker.getTypeOfSymbol(property)
    const symbol = exported.has(type.aliasSymbol!) ? type.aliasSymbol : type.getSymbol()
    delete definitions[name]
    definitions[name] = {}
    // A root's doc is its declaration's; a union (FunnelPersonsParams) is expanded member by member.
    const open = isParams(name)
    const schema = type.isUnion() && !(type.flags & ts.TypeFlags.Boolean) ? { anyOf: type.types.map((m) => expand(m, open)) } : expand(type, open)
    definitions[name] = withDoc(schema, docOf(symbol))
  }
  return Object.fromEntries(Object.keys(definitions).sort().map((k) => [k, definitions[k]!]))
}

/** The text of src/wire/analysis-schemas.generated.ts. */
export function generatedFileText(schemas: Record<string, Json>): string {
  return [
    '// Generated by scripts/analysis-schemas.ts from core\'s exported types; do not edit.',
    '// Regenerate: node --import tsx packages/http-adapter/scripts/analysis-schemas.ts',
    '',
    `export const ANALYSIS_SCHEMA_ROOTS = ${JSON.stringify(ANALYSIS_ROOTS)} as const`,
    '',
    '/** A schema generated from one of core\'s analysis types. */',
    'export type AnalysisSchemaName = (typeof ANALYSIS_SCHEMA_ROOTS)[number]',
    '',
    '/** JSON Schemas (draft 2020-12) by name; refs point into the OpenAPI document\'s components.schemas. */',
    // One definition a line: a change of one type is a change of its line.
    `export const ANALYSIS_SCHEMAS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {`,
    ...Object.entries(schemas).map(([name, schema]) => `  ${JSON.stringify(name)}: ${JSON.stringify(schema)},`),
    '}',
    '',
  ].join('\n')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(GENERATED_FILE, generatedFileText(generateAnalysisSchemas()))
  console.log(`wrote ${GENERATED_FILE}`)
}

import { DefaultQueryCompiler, OperatorNode } from 'kysely'
import type { BinaryOperationNode, CompiledQuery, DataTypeNode, OperationNode, QueryId, RawNode, RootOperationNode, ValueNode } from 'kysely'
import { toClickHouseParameter, toTimeParameter, type ClickHouseParameter } from './clickhouse-parameter.js'
import { nullableWindowShifts } from './nullable-window-shifts.js'
import { signedAggregates } from './signed-aggregates.js'

// Core's cast types (`sqlCast`) ClickHouse lacks or reads otherwise (its TIMESTAMP is DateTime, whole seconds; type
// names are case-sensitive but for SQL's aliases, such as the bigint, text and boolean core writes; `uuid` is not one).
const DATA_TYPES: Readonly<Record<string, string>> = {
  timestamptz: "DateTime64(6, 'UTC')",
  float8: 'Float64',
  uuid: 'UUID',
}

// `escape '\'` as DuckDB and Postgres read it (one backslash).
const SQL_BACKSLASH_ESCAPE = "escape '\\'"

// Postgres's regex operators find a match anywhere, as ClickHouse's match() (RE2) does; `(?i)` makes it case-insensitive.
const REGEX_OPERATORS: Readonly<Record<string, { negated: boolean; flags: string }>> = {
  '~': { negated: false, flags: '' },
  '~*': { negated: false, flags: '(?i)' },
  '!~': { negated: true, flags: '' },
  '!~*': { negated: true, flags: '(?i)' },
}

/**
 * Compiles Kysely's query tree to ClickHouse SQL. Values are bound as
 * ClickHouse query parameters, `{p1:String}`, typed by
 * `toClickHouseParameter`; the parameter list holds the values as the driver
 * sends them. Only what ClickHouse spells differently from Kysely's default is
 * overridden.
 */
export class ClickHouseQueryCompiler extends DefaultQueryCompiler {
  /**
   * `timeColumns`: columns of type DateTime64 that queries compare with ISO
   * 8601 texts. ClickHouse reads a text compared with a key column with its
   * strict parser (`2026-01-01T00:00:00Z` fails), so a text compared with one
   * of these columns is bound as `DateTime64(6, 'UTC')` instead of `String`.
   */
  constructor(private readonly timeColumns: ReadonlySet<string> = new Set()) {
    super()
  }

  /**
   * As Kysely compiles, then rewrites of the text (user values are
   * parameters there, never text): `lag`/`lead` with SQL's null past the
   * partition (`nullableWindowShifts`), and counts and integer sums signed
   * as SQL's (`signedAggregates`).
   */
  override compileQuery(node: RootOperationNode, queryId: QueryId): CompiledQuery {
    const compiled = super.compileQuery(node, queryId)
    const sql = signedAggregates(nullableWindowShifts(compiled.sql))
    return sql === compiled.sql ? compiled : Object.freeze({ ...compiled, sql })
  }

  /**
   * SQL's `like ... escape '\'` in text core wrote (a raw fragment, never a
   * bound value): a backslash in a ClickHouse literal escapes the quote, so
   * the literal is `'\\'` here.
   */
  protected override visitRaw(node: RawNode): void {
    if (!node.sqlFragments.some((f) => f.includes(SQL_BACKSLASH_ESCAPE))) return super.visitRaw(node)
    super.visitRaw({ ...node, sqlFragments: node.sqlFragments.map((f) => f.replaceAll(SQL_BACKSLASH_ESCAPE, "escape '\\\\'")) })
  }

  /** Core's casts (`sqlCast`) to the Postgres types ClickHouse lacks, in ClickHouse's names. */
  protected override visitDataType(node: DataTypeNode): void {
    this.append(DATA_TYPES[node.dataType] ?? node.dataType)
  }

  protected override appendValue(value: unknown): void {
    this.#appendParameter(toClickHouseParameter(value))
  }

  #appendParameter(parameter: ClickHouseParameter): void {
    this.addParameter(parameter.value)
    this.append(`{p${this.numParameters}:${parameter.type}}`)
  }

  // ClickHouse reads backslash escapes inside quoted identifiers and string literals: both are escaped.
  protected override sanitizeIdentifier(identifier: string): string {
    return identifier.replaceAll('\\', '\\\\').replaceAll('"', '\\"')
  }

  protected override sanitizeStringLiteral(value: string): string {
    return value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")
  }

  protected override visitBinaryOperation(node: BinaryOperationNode): void {
    const regex = OperatorNode.is(node.operator) ? REGEX_OPERATORS[node.operator.operator] : undefined
    if (regex) {
      this.append(regex.negated ? '(not match(' : 'match(')
      this.visitNode(node.leftOperand)
      this.append(', ')
      if (regex.flags) this.append(`concat('${regex.flags}', `)
      this.visitNode(node.rightOperand)
      if (regex.flags) this.append(')')
      this.append(regex.negated ? '))' : ')')
      return
    }
    const leftTime = this.#isTimeText(node.rightOperand, node.leftOperand)
    const rightTime = this.#isTimeText(node.leftOperand, node.rightOperand)
    if (!leftTime && !rightTime) {
      super.visitBinaryOperation(node)
      return
    }
    this.#operand(node.leftOperand, leftTime)
    this.append(' ')
    this.visitNode(node.operator)
    this.append(' ')
    this.#operand(node.rightOperand, rightTime)
  }

  #operand(node: OperationNode, asTime: boolean): void {
    if (asTime) this.#appendParameter(toTimeParameter((node as ValueNode).value as string))
    else this.visitNode(node)
  }

  /** True when `value` is a bound text and `other` a reference to one of `timeColumns`. */
  #isTimeText(other: OperationNode, value: OperationNode): boolean {
    if (value.kind !== 'ValueNode' || (value as ValueNode).immediate || typeof (value as ValueNode).value !== 'string') return false
    const column = other.kind === 'ReferenceNode' ? (other as unknown as { column: OperationNode }).column : other
    return column.kind === 'ColumnNode' && this.timeColumns.has((column as unknown as { column: { name: string } }).column.name)
  }
}

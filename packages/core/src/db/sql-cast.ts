import { CastNode, DataTypeNode, isOperationNodeSource, ValueNode, type Expression } from 'kysely'

/**
 * The types core casts to that databases spell differently: `timestamptz`
 * (an instant, microseconds), `float8` (a double) and `uuid`. The names are
 * Postgres's, which DuckDB reads too; another dialect's compiler renders the
 * `DataTypeNode` as its own type (ClickHouse: `DateTime64(6, 'UTC')`,
 * `Float64`, `UUID`).
 */
export type SqlCastType = 'timestamptz' | 'float8' | 'uuid'

/**
 * `cast(value as type)` as a Kysely `CastNode`, not text: `value` is an
 * expression, or a value bound as a parameter. DuckDB's and Postgres's
 * compilers render it `cast(x as timestamptz)`, as core wrote it by hand;
 * a dialect whose type names differ overrides `visitDataType`.
 */
export function sqlCast<T>(value: unknown, type: SqlCastType): Expression<T> {
  const node = CastNode.create(isOperationNodeSource(value) ? value.toOperationNode() : ValueNode.create(value), DataTypeNode.create(type))
  return {
    get expressionType(): T | undefined {
      return undefined
    },
    toOperationNode: () => node,
  }
}

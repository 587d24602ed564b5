import { JSONPathLegNode, OperatorNode, PostgresQueryCompiler } from 'kysely'
import type { BinaryOperationNode, JSONOperatorChainNode } from 'kysely'

// Postgres's `~` finds a match anywhere in the string; DuckDB's `~` must
// match all of it, and DuckDB has no `~*` or `!~*`. `regexp_matches` has
// Postgres's meaning, with option 'i' for case-insensitivity.
const REGEX_OPERATORS: Readonly<Record<string, { negated: boolean; options: string }>> = {
  '~': { negated: false, options: '' },
  '~*': { negated: false, options: ", 'i'" },
  '!~': { negated: true, options: '' },
  '!~*': { negated: true, options: ", 'i'" },
}

/**
 * Compiles Kysely's query tree to DuckDB SQL. DuckDB follows Postgres
 * spelling (`$1` placeholders, RETURNING, ON CONFLICT, DISTINCT ON, `ilike`,
 * `->`/`->>`), so only what it spells differently is overridden here.
 */
export class DuckDBQueryCompiler extends PostgresQueryCompiler {
  protected override visitBinaryOperation(node: BinaryOperationNode): void {
    const regex = OperatorNode.is(node.operator) ? REGEX_OPERATORS[node.operator.operator] : undefined

    if (!regex) {
      super.visitBinaryOperation(node)
      return
    }

    this.append(regex.negated ? '(not regexp_matches(' : 'regexp_matches(')
    this.visitNode(node.leftOperand)
    this.append(', ')
    this.visitNode(node.rightOperand)
    this.append(regex.options)
    this.append(regex.negated ? '))' : ')')
  }

  // DuckDB reads `->-1` as an operator `->-`, so `.at(-1)` needs the spaces.
  protected override visitJSONOperatorChain(node: JSONOperatorChainNode): void {
    node.values.forEach((value, i) => {
      this.append(' ')

      if (i === node.values.length - 1) {
        this.visitNode(node.operator)
      } else {
        this.append('->')
      }

      this.append(' ')
      this.visitNode(value)
    })
  }

  // Kysely's `.at('last')` is MySQL's `$[last]`; DuckDB spells it `$[#-1]`, as SQLite does.
  protected override visitJSONPathLeg(node: JSONPathLegNode): void {
    super.visitJSONPathLeg(
      node.type === 'ArrayLocation' && node.value === 'last' ? JSONPathLegNode.create('ArrayLocation', '#-1') : node,
    )
  }
}

import type { HogqlNode } from './hogql-node.js'
import type { Ctx, Value } from './value.js'

/** A function of the subset: its arity and how it compiles its (uncompiled) arguments. */
export interface HogqlFunction {
  readonly min: number
  readonly max: number
  compile(args: ReadonlyArray<unknown>, node: HogqlNode, ctx: Ctx): Value
}

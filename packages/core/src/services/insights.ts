// Skeleton: filled in by the insights work. Signatures are the contract.
import type { EngineContext } from '../context.js'

export function insightsService(ctx: EngineContext) {
  void ctx
  return {}
}

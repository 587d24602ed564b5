// Skeleton: filled in by the insights work. Signatures are the contract.
import type { EngineContext } from '../context.js'

export function dashboardsService(ctx: EngineContext) {
  void ctx
  return {}
}

// Skeleton: filled in by the plugins work (see its issue). Signatures are the contract.
import type { EngineContext } from '../context.js'
import type { SightlineConfig } from '../config.js'

export function pluginsService(ctx: EngineContext, config: SightlineConfig) {
  void ctx
  void config
  return {}
}

export function pluginConfigsService(ctx: EngineContext) {
  void ctx
  return {}
}

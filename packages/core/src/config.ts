/** One installable plugin of the plugin repository (PostHog's plugin repository entry). */
export interface PluginRepositoryEntry {
  readonly name: string
  readonly url: string
  readonly description: string
  readonly icon: string
  /** The newest released tag (a version or commit); `check_for_updates` compares plugins' tags with it. */
  readonly tag: string
  readonly maintainer?: string
  readonly type?: 'data_in' | 'data_out' | 'transformation' | 'other'
}

/** Engine-wide settings decoded from `createSightline`'s options, frozen. Internal. */
export interface SightlineConfig {
  readonly pluginRepository: ReadonlyArray<PluginRepositoryEntry>
}

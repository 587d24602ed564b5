import { bundle } from '../scripts/bundle.mjs'

/** The browser tests serve the bundle: build it once per run (esbuild, well under a second), as `pnpm build` does. */
export default async function setup(): Promise<void> {
  await bundle()
}

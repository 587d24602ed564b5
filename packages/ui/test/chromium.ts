import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium (`apt-get install chromium`), or the one `SIGHTLINE_CHROMIUM` names. */
export const CHROMIUM = process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium'

/** Why the browser tests cannot run here, or null when they can. */
export const chromiumMissing: string | null = existsSync(CHROMIUM)
  ? null
  : `no Chromium at ${CHROMIUM}: the browser tests are skipped (install Debian's chromium, as .ci/run does, or set SIGHTLINE_CHROMIUM)`

/**
 * Headless Chromium as root on a closed network: no sandbox (root), and none
 * of the background connections Chromium tries at start (refused here, each
 * a delay), in a fresh profile.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}

import { type Random, weighted } from '../../random.js'

export type DeviceType = 'Desktop' | 'Mobile' | 'Tablet'
export type Os = 'Windows' | 'Mac OS X' | 'Linux' | 'iOS' | 'Android'
export type Browser = 'Chrome' | 'Safari' | 'Firefox' | 'Edge'

export interface Device {
  readonly anonId: string
  readonly deviceType: DeviceType
  readonly os: Os
  readonly browser: Browser
  readonly browserVersion: number
  identified: boolean
}

const deviceType = weighted([['Desktop', 62], ['Mobile', 33], ['Tablet', 5]] as const)
const osFor = {
  Desktop: weighted([['Windows', 55], ['Mac OS X', 35], ['Linux', 10]] as const),
  Mobile: weighted([['iOS', 50], ['Android', 50]] as const),
  Tablet: weighted([['iOS', 70], ['Android', 30]] as const),
}
// Browsers depend on the OS (no Safari on Windows); overall about Chrome 60%, Safari 25%, Edge 8%, Firefox 7%.
const browserFor: Record<Os, (random: Random) => Browser> = {
  Windows: weighted<Browser>([['Chrome', 72], ['Edge', 20], ['Firefox', 8]]),
  'Mac OS X': weighted<Browser>([['Chrome', 55], ['Safari', 35], ['Firefox', 7], ['Edge', 3]]),
  Linux: weighted<Browser>([['Chrome', 65], ['Firefox', 35]]),
  iOS: weighted<Browser>([['Safari', 85], ['Chrome', 15]]),
  Android: weighted<Browser>([['Chrome', 94], ['Firefox', 4], ['Edge', 2]]),
}
const BROWSER_VERSIONS: Record<Browser, readonly [number, number]> = {
  Chrome: [118, 131],
  Safari: [15, 18],
  Firefox: [115, 133],
  Edge: [118, 131],
}

/** A new, not yet identified device, of a different type than `avoid` when one is given. */
export function drawDevice(random: Random, avoid: DeviceType | undefined): Device {
  let type = deviceType(random)
  // A second device is usually a different kind: the phone after the laptop.
  if (type === avoid) type = type === 'Desktop' ? 'Mobile' : 'Desktop'
  const os = osFor[type](random)
  const browser = browserFor[os](random)
  const [lowest, newest] = BROWSER_VERSIONS[browser]
  return {
    anonId: `anon-${random.hex(16)}`,
    deviceType: type,
    os,
    browser,
    browserVersion: random.int(lowest, newest),
    identified: false,
  }
}

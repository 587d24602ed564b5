/** WCAG 2 relative luminance of a `#rrggbb` colour. */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}

const SHADE = [0x1d, 0x4a, 0xff]
// Black, not the page's near-black: on a background between the two, only pure black and white
// keep 4.5:1 (the worst share gives 4.58 with black, 4.1 with #111827).
const DARK = '#000000'
const LIGHT = '#ffffff'

/**
 * A retention cell's colours for the share that came back: the page's blue
 * over white at that share (opaque, at least a tint), and whichever of
 * black or white text contrasts more with it (4.5:1 or more at every
 * share, checked in the tests).
 */
export function retentionCellColors(share: number): { background: string; color: string } {
  const alpha = Math.max(0.04, Math.min(1, Number.isFinite(share) ? share : 0))
  const background = `#${SHADE.map((c) => Math.round(alpha * c + (1 - alpha) * 255).toString(16).padStart(2, '0')).join('')}`
  return { background, color: contrastRatio(background, DARK) >= contrastRatio(background, LIGHT) ? DARK : LIGHT }
}

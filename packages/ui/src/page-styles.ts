/**
 * The page's styles. Colours are chosen for contrast: text #111827 on white
 * (17:1), muted text #4b5563 (7.6:1), links and buttons #1d4aff (5.9:1);
 * focus is always visible (an amber #b45309 outline, 5:1 against white).
 */
export const PAGE_STYLES = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111827; background: #ffffff; }
body { margin: 0; }
[hidden] { display: none !important; }
#sightline-app { max-width: 1100px; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
header.sightline-bar { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; border-bottom: 1px solid #d1d5db; padding-bottom: .75rem; margin-bottom: 1rem; }
header.sightline-bar h1 { font-size: 1.2rem; margin: 0 auto 0 0; }
a { color: #1d4aff; }
button, select, input { font: inherit; }
button { color: #ffffff; background: #1d4aff; border: 1px solid #1d4aff; border-radius: 4px; padding: .35rem .8rem; cursor: pointer; }
button.secondary, button.sightline-persons { color: #1d4aff; background: #ffffff; }
button.sightline-persons { border: none; padding: 0 .2rem; text-decoration: underline; background: transparent; color: inherit; }
button:disabled { opacity: .6; cursor: default; }
:focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
/* Headings take focus when a page opens (for screen readers), not to be shown as a control. */
h2[tabindex="-1"]:focus { outline: none; }
label { display: inline-flex; flex-direction: column; gap: .2rem; font-size: .85rem; color: #4b5563; }
input, select { color: #111827; border: 1px solid #6b7280; border-radius: 4px; padding: .3rem .4rem; background: #ffffff; }
.sightline-controls { display: flex; gap: .75rem; flex-wrap: wrap; align-items: flex-end; margin: .75rem 0; }
.sightline-status { color: #4b5563; font-size: .9rem; min-height: 1.4em; }
.sightline-error { color: #991b1b; background: #fef2f2; border: 1px solid #fecaca; padding: .5rem .75rem; border-radius: 4px; }
.sightline-list { list-style: none; padding: 0; display: grid; gap: .4rem; }
.sightline-list a { display: block; padding: .5rem .75rem; border: 1px solid #d1d5db; border-radius: 4px; text-decoration: none; }
.sightline-list a:hover { background: #f3f4f6; }
.sightline-tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(480px, 1fr)); gap: 1rem; }
.sightline-tile { border: 1px solid #d1d5db; border-radius: 6px; padding: .75rem; min-width: 0; }
.sightline-tile h3 { margin: 0 0 .5rem; font-size: 1rem; }
/* Saved layouts (layouts.sm): PostHog's 12 columns of 80px rows, only where 12 columns fit; narrower, the tiles stack. */
@media (min-width: 720px) {
  .sightline-tiles-placed { grid-template-columns: repeat(12, minmax(0, 1fr)); grid-auto-rows: minmax(80px, auto); }
  .sightline-tiles-placed > .sightline-tile { grid-column: var(--tile-column, auto) / span var(--tile-width, 6); grid-row: var(--tile-row, auto) / span var(--tile-height, 5); }
}
@media (max-width: 719.98px) { .sightline-tiles-placed { grid-template-columns: minmax(0, 1fr); } }
.sightline-tile-colored { border-left: 6px solid var(--tile-color); }
.sightline-text { white-space: pre-wrap; overflow-wrap: anywhere; }
.sightline-table-scroll { overflow-x: auto; margin: .75rem 0; }
.sightline-table { border-collapse: collapse; font-size: .85rem; }
.sightline-table th, .sightline-table td { border: 1px solid #e5e7eb; padding: .25rem .5rem; text-align: right; white-space: nowrap; }
.sightline-table th[scope=row], .sightline-table thead th:first-child { text-align: left; }
.sightline-table caption { text-align: left; color: #4b5563; padding-bottom: .25rem; }
.sightline-retention td.sightline-cell button { color: inherit; }
.sightline-number { margin: 1rem 0; text-align: center; }
.sightline-bold-number { font-size: 3.5rem; font-weight: 700; }
.sightline-bold-number button { font-size: inherit; font-weight: inherit; }
.sightline-data summary { cursor: pointer; color: #1d4aff; margin-top: .5rem; }
dialog { max-width: min(720px, 95vw); border: 1px solid #9ca3af; border-radius: 6px; }
dialog::backdrop { background: rgba(17, 24, 39, .4); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`

// The bundle's entry (assets/sightline-ui.js): the embeddable functions as
// ES exports, <sightline-insight> registered, and the page mounted on
// #sightline-app when the document has one (the page the http-adapter serves).
import { mountApp } from './app/mount-app.js'
import { defineSightlineInsight } from './sightline-insight.js'

export * from './index.js'
export { mountApp }

defineSightlineInsight()
const root = document.getElementById('sightline-app')
if (root) mountApp(root)

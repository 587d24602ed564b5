export { sightlineUi, type SightlineUi, type SightlineUiOptions } from './sightline-ui.js'

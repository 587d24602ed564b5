export { generateSampleData, type SampleData, type SampleDataOptions, type SampleEvent } from './sample-data.js'
export { createProgressBar } from './progress-bar.js'
export { runDemo, type DemoOptions } from './demo-command.js'

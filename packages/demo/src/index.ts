export { generateSampleData, type SampleData, type SampleDataOptions, type SampleEvent } from './sample-data.js'
export { createProgressBar } from './progress-bar.js'

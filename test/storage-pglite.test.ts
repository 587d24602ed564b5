import { runStorageConformance } from './conformance/storage-conformance.js'
import { pgliteTarget } from './targets/postgres.js'

runStorageConformance(pgliteTarget)

import { runStorageConformance } from './conformance/storage-conformance.js'
import { clickhouseTarget } from './targets/clickhouse.js'

runStorageConformance(clickhouseTarget)

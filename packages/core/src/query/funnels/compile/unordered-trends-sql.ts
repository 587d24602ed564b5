import type { Expression } from 'kysely'
import { ValidationError } from '../../../errors.js'
import type { FunnelPlan } from '../funnel-plan.js'
import type { Sql } from './sql-kit.js'

export function unorderedTrendCtes(_plan: FunnelPlan, _periodOf: (ts: Expression<number>) => Expression<number>, _fromStep: number): Array<readonly [string, Sql]> {
  throw new ValidationError([{ path: ['funnel_order_type'], message: 'unordered funnel trends are not available yet' }])
}

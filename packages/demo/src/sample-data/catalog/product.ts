import { weighted } from '../../random.js'

export const feature = weighted([
  ['dashboards', 22], ['insights', 20], ['funnels', 14], ['retention', 8], ['cohorts', 7], ['session_replay', 9],
  ['feature_flags', 8], ['experiments', 4], ['export', 5], ['sql', 3],
] as const)

export const SIGNUP_METHODS = ['email', 'google', 'github']

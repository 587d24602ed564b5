/** HogQL expressions (`breakdown_type: 'hogql'`, `math_hogql`, `type: 'hogql'` filters) compiled to SQL. */
export { compileHogql, compileHogqlCondition, hogqlToText, MAX_HOGQL_DEPTH } from './compile-hogql.js'
export { loadHogqlParser } from './parser.js'
export { MAX_HOGQL_LENGTH, MAX_HOGQL_NESTING, MAX_HOGQL_TOKENS } from './limits.js'
export type { CompiledHogql, HogqlScope, HogqlType } from './scope.js'

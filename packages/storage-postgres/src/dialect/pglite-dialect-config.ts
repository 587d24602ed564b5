/**
 * The subset of `@electric-sql/pglite` this dialect uses, so the package does
 * not depend on it: any PGlite version with these members works, and so does
 * PGlite's worker client.
 */
export interface PGliteLike {
  readonly closed: boolean
  query<R>(sql: string, params?: unknown[], options?: PGliteQueryOptions): Promise<PGliteResults<R>>
  /**
   * Runs `callback` between BEGIN and COMMIT (ROLLBACK if it throws), holding
   * PGlite's own lock so that no other query on the instance runs meanwhile.
   */
  transaction<T>(callback: (tx: PGliteTransactionLike) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** The handle PGlite passes to a `transaction` callback. */
export interface PGliteTransactionLike {
  query<R>(sql: string, params?: unknown[], options?: PGliteQueryOptions): Promise<PGliteResults<R>>
  rollback(): Promise<void>
}

export interface PGliteQueryOptions {
  rowMode?: 'object' | 'array'
  /** Parsers by type OID, in front of PGlite's own. */
  parsers?: Record<number, (text: string, typeId: number) => unknown>
}

export interface PGliteResults<R> {
  rows: R[]
  /** The command tag's first word (`INSERT`, `SELECT` ...); absent in older PGlite versions. */
  command?: string
  /** The count from the command tag. */
  rowCount?: number
  /** Rows changed by INSERT, UPDATE, DELETE (cumulative over a multi-statement exec). */
  affectedRows?: number
}

export interface PGliteDialectConfig {
  /** The PGlite instance to run on. It keeps belonging to the caller unless `closeOnDestroy` is set. */
  readonly pglite: PGliteLike
  /**
   * Whether `Kysely#destroy()` closes the PGlite instance. Default `false`: the
   * caller created it, may share it, and closes it.
   */
  readonly closeOnDestroy?: boolean
  /** A schema to put first (and alone) on the `search_path`. Default: the server's default path. */
  readonly schema?: string
}

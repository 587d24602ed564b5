import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A temporary directory for a test process's migrated templates, named
 * `<prefix>-<pid>-…`. It is removed when the process exits normally; vitest
 * stops its workers with SIGTERM, which skips `exit` handlers, so each call
 * first removes the directories of processes that no longer run.
 */
export function templateDir(prefix: string): string {
  const root = tmpdir()
  for (const name of readdirSync(root)) {
    const pid = new RegExp(`^${prefix}-(\\d+)-`).exec(name)?.[1]
    if (pid !== undefined && !running(Number(pid))) rmSync(join(root, name), { recursive: true, force: true })
  }
  const dir = mkdtempSync(join(root, `${prefix}-${process.pid}-`))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

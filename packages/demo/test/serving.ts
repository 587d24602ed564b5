import { runServe, type ServeCommandOptions } from '../src/serve-command.js'
import { CapturedOutput } from './captured-output.js'

/** `sightline serve` on a free port until `stop()`; what it printed up to serving. */
export async function serving(options: ServeCommandOptions): Promise<{ out: CapturedOutput; url: string; stop: () => Promise<void> }> {
  const out = new CapturedOutput()
  const abort = new AbortController()
  const running = runServe({ ...options, port: 0, out, signal: abort.signal })
  const ended = running.then(() => Promise.reject(new Error(`serve stopped before serving:\n${out.text}`)))
  const [, url = ''] = await Promise.race([out.waitFor(/serving (http:\/\/\S+)/), ended])
  return {
    out,
    url,
    stop: async () => {
      abort.abort()
      await running
    },
  }
}

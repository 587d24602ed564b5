// Bundles the browser code (src/browser/main.ts, ECharts included) into
// assets/sightline-ui.js, the one script the page loads. Run by the root
// `pnpm build`, by `pnpm pack` (prepack) and by the ui tests' global setup,
// so a clean checkout never needs a manual step. Deterministic: the same
// sources and lockfile give the same bytes.
import { build } from 'esbuild'
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Writes assets/sightline-ui.js; resolves once it is on disk. */
export async function bundle() {
  mkdirSync(join(root, 'assets'), { recursive: true })
  await build({
    entryPoints: [join(root, 'src/browser/main.ts')],
    outfile: join(root, 'assets/sightline-ui.js'),
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    legalComments: 'eof',
    logLevel: 'warning',
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle()

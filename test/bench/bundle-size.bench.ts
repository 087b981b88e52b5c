/**
 * The browser bundle: gzipped size of every JavaScript chunk, and the JavaScript the login route
 * loads (the entry chunk, the login page chunk and everything they import statically) against the
 * 300 KB target, as a ratio. Figures only, never pass/fail.
 *
 * Builds the client into a temporary folder (so a running e2e server keeps its dist/), unless
 * BUNDLE_DIST names an existing build made with the same vite.config.ts (it writes .vite/manifest.json).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

const root = path.resolve(import.meta.dirname, '..', '..')
const LOGIN_TARGET_BYTES = 300 * 1024
/** The source files of the login route's lazy page, as the manifest names them (relative to src/client). */
const LOGIN_PAGES = ['pages/Login.tsx']

interface ManifestChunk {
  file: string
  src?: string
  name?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
}
type Manifest = Record<string, ManifestChunk>

function build(): { dist: string; cleanup: () => void } {
  const given = process.env.BUNDLE_DIST
  if (given) return { dist: path.resolve(given), cleanup: () => undefined }
  const dist = mkdtempSync(path.join(os.tmpdir(), 'erp-bundle-'))
  const started = Date.now()
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  })
  console.log(`vite build: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return { dist, cleanup: () => rmSync(dist, { recursive: true, force: true }) }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/** Chunk keys reachable through static imports from the given keys (what the browser must fetch). */
function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return
    seen.add(key)
    for (const k of manifest[key].imports ?? []) visit(k)
  }
  keys.forEach(visit)
  return seen
}

const { dist, cleanup } = build()
try {
  const manifestFile = path.join(dist, '.vite', 'manifest.json')
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: vite.config.ts must set build.manifest`)
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest
  const sizes = new Map<string, { raw: number; gzip: number }>()
  const sizeOf = (file: string) => {
    let s = sizes.get(file)
    if (!s) {
      const bytes = readFileSync(path.join(dist, file))
      s = { raw: bytes.length, gzip: gzipSync(bytes).length }
      sizes.set(file, s)
    }
    return s
  }

  const chunks = Object.entries(manifest).filter(([, c]) => c.file.endsWith('.js'))
  const rows = chunks.map(([key, c]) => ({ key, file: c.file, kind: c.isEntry ? 'entry' : c.isDynamicEntry ? 'lazy' : 'shared', ...sizeOf(c.file) }))
  rows.sort((a, b) => b.gzip - a.gzip)
  console.log(`\n${rows.length} JavaScript chunks (gzip, zlib default level), largest first:`)
  console.log(`${'gzip'.padStart(10)} ${'raw'.padStart(10)}  kind    chunk`)
  for (const r of rows) console.log(`${kb(r.gzip).padStart(10)} ${kb(r.raw).padStart(10)}  ${r.kind.padEnd(6)}  ${r.file}${r.key.startsWith('_') ? '' : `  (${r.key})`}`)
  const total = rows.reduce((sum, r) => sum + r.gzip, 0)
  console.log(`${kb(total).padStart(10)} in all`)

  const entries = chunks.filter(([, c]) => c.isEntry).map(([k]) => k)
  const loginKeys = LOGIN_PAGES.filter((k) => manifest[k])
  if (loginKeys.length !== LOGIN_PAGES.length) console.log(`note: ${LOGIN_PAGES.join(', ')} is not its own chunk (bundled into the entry?)`)
  const login = [...staticClosure(manifest, [...entries, ...loginKeys])].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'))
  const loginGzip = login.reduce((sum, f) => sum + sizeOf(f).gzip, 0)
  const loginRaw = login.reduce((sum, f) => sum + sizeOf(f).raw, 0)
  console.log(`\nlogin route: ${login.length} chunks, ${kb(loginGzip)} gzip (${kb(loginRaw)} raw)`)
  console.log(`login route vs 300 KB target: ratio ${(loginGzip / LOGIN_TARGET_BYTES).toFixed(3)} (${loginGzip <= LOGIN_TARGET_BYTES ? 'within' : 'over'} target)`)

  // The named chunks of vite.config.ts (codeSplitting groups): where they load.
  for (const group of ['react-vendor', 'echarts']) {
    const holders = rows.filter((r) => path.basename(r.file).startsWith(`${group}-`)).map((r) => r.file)
    const onLogin = holders.filter((f) => login.includes(f))
    console.log(`${group}: ${holders.length === 0 ? 'not in the build' : onLogin.length ? `on the login route (${onLogin.join(', ')})` : `lazy only (${kb(holders.reduce((s, f) => s + sizeOf(f).gzip, 0))} gzip)`}`)
  }
} finally {
  cleanup()
}

/// <reference types="vitest/config" />
import path from 'node:path'
import { createHash } from 'node:crypto'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { readFileSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import { CATALOGUE_FILE, LOCALE_FILE, localeDirs, type LocaleFolder } from './src/shared/i18n/locale-folder.js'
import { REDUCED_MOTION_QUERY } from './src/shared/look/ui-constants.js'
import { THEME_SHEETS_META } from './src/client/app/theme-sheets.js'

const execFileAsync = promisify(execFile)

const here = import.meta.dirname
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`
const apiFileWorkers = Math.max(1, Number(process.env.API_FILE_WORKERS ?? 1) || 1)

/**
 * `virtual:extra-locales`: the rows of the languages in the folders of LOCALE_DIRS (a test build adds
 * the fixture language this way), registered before anything reads the table; nothing in a normal build.
 * Their catalogue, antd and dayjs texts stay lazy chunks, as those of the table's own languages.
 */
function extraLocales(dirs: readonly string[]): Plugin {
  const id = 'virtual:extra-locales'
  const rows = dirs.map((dir) => {
    const row = JSON.parse(readFileSync(path.resolve(dir, LOCALE_FILE), 'utf8')) as LocaleFolder
    const catalogue = JSON.stringify(path.resolve(dir, CATALOGUE_FILE))
    return `registerLocale({ ...${JSON.stringify(row)}, antd: () => import('antd/es/locale/${row.antdLocale}'), loadDayjs: () => import('dayjs/locale/${row.dayjs}'), catalogue: async () => (await import(${catalogue})).default })`
  })
  const table = JSON.stringify(path.join(here, 'src/shared/i18n/locales.ts'))
  const code = rows.length ? [`import { registerLocale } from ${table}`, ...rows].join('\n') : 'export {}'
  return { name: 'extra-locales', resolveId: (source) => (source === id ? `\0${id}` : undefined), load: (loaded) => (loaded === `\0${id}` ? code : undefined) }
}

/**
 * antd's styles as static stylesheets (generators/antd-static-css.ts), in a build only, one a theme and
 * motion setting. The light ones are linked before every other stylesheet, where antd's run-time styles
 * would be (ours come after and win), so a component shows without making its style first. The theme of
 * a user who asks for less motion has other tokens (app/theme.ts), so it has its own sheet, applied only
 * under that media query; its map of styles, later, then wins over the first's. The dark and night sheets
 * are named in a meta tag and linked by the page of a user who chose that theme (app/theme-sheets.ts), so
 * no one else downloads them. `npm run dev` makes every style at run time.
 */
function antdStaticStyles(): Plugin {
  const sheets = (['light', 'dark', 'night'] as const).flatMap((mode) =>
    (['full', 'reduced'] as const).map((motion) => ({ mode, motion, fileName: '', css: '' })),
  )
  let base = '/'
  return {
    name: 'antd-static-styles',
    apply: 'build',
    configResolved: (config) => void (base = config.base),
    async buildStart() {
      await Promise.all(
        sheets.map(async (sheet) => {
          // Its own process: antd names its classes for production only when NODE_ENV says so as it loads.
          const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', path.join(here, 'generators/antd-static-css.ts'), sheet.mode, sheet.motion], {
            env: { ...process.env, NODE_ENV: 'production' },
            maxBuffer: 64 * 1024 * 1024,
            encoding: 'utf8',
          })
          sheet.css = stdout
          const name = sheet.mode === 'light' ? sheet.motion : `${sheet.mode}-${sheet.motion}`
          sheet.fileName = `assets/antd-${name}-${createHash('sha256').update(sheet.css).digest('hex').slice(0, 10)}.css`
        }),
      )
    },
    transformIndexHtml: () => [
      ...sheets
        .filter(({ mode }) => mode === 'light')
        .map(({ fileName, motion }) => ({ tag: 'link', attrs: { rel: 'stylesheet', href: `${base}${fileName}`, ...(motion === 'reduced' ? { media: REDUCED_MOTION_QUERY } : {}) }, injectTo: 'head-prepend' as const })),
      {
        tag: 'meta',
        attrs: {
          name: THEME_SHEETS_META,
          content: JSON.stringify(Object.fromEntries(sheets.filter(({ mode }) => mode !== 'light').map(({ mode, motion, fileName }) => [`${mode}-${motion}`, `${base}${fileName}`]))),
        },
        injectTo: 'head' as const,
      },
    ],
    generateBundle() {
      for (const { fileName, css } of sheets) this.emitFile({ type: 'asset', fileName, source: css })
    },
  }
}

/**
 * A gzipped copy (`.gz`) beside every asset that compresses, which the server sends to a browser that
 * accepts it (app.ts, @fastify/static `preCompressed`): made once here, not at every request.
 */
function precompressedAssets(): Plugin {
  let outDir = ''
  return {
    name: 'precompressed-assets',
    apply: 'build',
    configResolved: (config) => void (outDir = config.build.outDir),
    writeBundle(_options, bundle) {
      for (const [fileName, item] of Object.entries(bundle)) {
        if (!/\.(js|css|json|svg|html|ttf|otf|wasm|map)$/.test(fileName)) continue
        const source = item.type === 'chunk' ? Buffer.from(item.code) : Buffer.from(item.source)
        if (source.length < 1024) continue
        const packed = gzipSync(source, { level: 9 })
        if (packed.length < source.length * 0.9) writeFileSync(path.join(outDir, `${fileName}.gz`), packed)
      }
    },
  }
}

export default defineConfig({
  plugins: [react(), extraLocales(localeDirs(process.env.LOCALE_DIRS, path.delimiter)), antdStaticStyles(), precompressedAssets()],
  root: path.join(here, 'src/client'),
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    // test/bench/bundle-size.bench.ts reads it to add up what the login route loads.
    manifest: true,
    rolldownOptions: {
      output: {
        // A stable React chunk (cached across releases) and a named chunk for ECharts, which only the
        // lazy workplace chart imports: the login route must stay under 300 KB of gzipped JavaScript
        // (npm run bench -- bundle-size). antd, tiptap and the rest are left to automatic splitting so a
        // page loads only what it uses. Groups pull in their dependencies: pulling them out instead
        // (includeDependenciesRecursively: false) broke tiptap's module order at run time.
        codeSplitting: {
          groups: [
            { name: 'react-vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 30 },
            { name: 'echarts', test: /node_modules[\\/](echarts|zrender)[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
  // ws: the message bus socket (/cloud-api/bus) goes through the same proxy.
  server: { port: 5173, proxy: { '/cloud-api': { target: apiTarget, ws: true } } },
  test: {
    projects: [
      {
        root: here,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['./test/unit/setup/fail-on-wasm-abort.ts'],
        },
      },
      {
        root: here,
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 120000,
          // Files run one after another, unless API_FILE_WORKERS says how many at once: test-all runs the
          // PostgreSQL stage with 2, as its files wait on the server about half the time (each file has its
          // own database, so files never share rows).
          fileParallelism: apiFileWorkers > 1,
          maxWorkers: apiFileWorkers,
          // One worker imports the server once for all files instead of once per file (each file still
          // starts its own app on its own database): the SQLite stage took 333 s isolated, 151 s not.
          // Module state must therefore not carry one file's data into another (test/support counters).
          isolate: false,
          globalSetup: ['./test/api/setup/template-database.ts'],
          setupFiles: ['./test/api/setup/use-template.ts'],
        },
      },
    ],
  },
})

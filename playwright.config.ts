import { defineConfig } from '@playwright/test'

// Debian's chromium (scripts/ensure-chromium.mjs); Playwright must never download a browser here.
// The background-networking flags keep Chromium from calling out of this closed network at every start.
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/e2e',
  // Spec files run in parallel on the one server (each test makes its own uniquely coded data and
  // counts only that); the tests of one file run in order in one worker.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  // One retry on CI: a test that fails twice fails the run; one that passes on its retry is counted and
  // printed as flaky by scripts/test-all.mjs (the summary names it), so a loaded machine cannot sink a
  // release while the flake stays visible.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  // Generous: the machine that runs `npm test` may be busy with other work; waits end on their condition.
  timeout: 60_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  // Starts the real server (node --import tsx src/server/main.ts) on a free port with a fresh DATA_DIR.
  globalSetup: './test/e2e/global-setup.ts',
  globalTeardown: './test/e2e/global-teardown.ts',
  use: {
    // An action (a click, a fill, a navigation, a wait for a download) that cannot happen fails after 45 s and
    // names itself, instead of hanging until the test's own timeout with no step named (a test of 120 s
    // then spent it all, and its retry came that much later).
    actionTimeout: 45_000,
    navigationTimeout: 45_000,
    // Set by the global setup before the test workers start; workers read this file again and inherit it.
    baseURL: process.env.E2E_BASE_URL,
    browserName: 'chromium',
    headless: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1440, height: 900 },
    // The browser asks for less motion, as a user can in their system: antd's animations are off and pages
    // show without their fade (app/reduced-motion.ts), so a run spends its CPU on the screens, not on frames of
    // sliding dialogs. Specs of the motion itself (spec-look) ask for it back with reducedMotion 'no-preference'.
    reducedMotion: 'reduce',
    // A test's retry records its trace (actions, DOM snapshots, network), so a test that failed once is
    // traced when it fails again; a first attempt records none. Recording every attempt and keeping only the
    // failures' cost a quarter of the time, for traces of tests that passed (four spec files on one worker:
    // 2.0 -> 1.5 min; Chromium's browser process 72 -> 29 CPU seconds). Locally (no retries)
    // `--trace retain-on-failure` records them. No screencast: capturing and encoding frames cost about as
    // much CPU as the pages themselves on 2 cores, for frames the DOM snapshots and the failure screenshot
    // already show.
    trace: { mode: 'on-first-retry', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
})

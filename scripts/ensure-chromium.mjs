#!/usr/bin/env node
// Finds the Chromium that Playwright drives (Debian's `chromium`; Playwright never downloads a browser
// here). As root a missing one is installed with apt; otherwise the command to run is printed.
// CLI: prints the browser path and exits 0, or exits 1.
import { spawnSync } from 'node:child_process'
import { accessSync, constants, existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

export const DEFAULT_CHROMIUM = '/usr/bin/chromium'
export const INSTALL_HINT = 'sudo apt-get install -y chromium fonts-noto-cjk'
// Chinese text renders as boxes in screenshots without a CJK font.
const CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function findChromium() {
  const fromEnv = process.env.CHROME_PATH
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv
    console.warn(`CHROME_PATH=${fromEnv} is not an executable file; trying ${DEFAULT_CHROMIUM}`)
  }
  return isExecutable(DEFAULT_CHROMIUM) ? DEFAULT_CHROMIUM : null
}

function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  console.log(`installing ${packages.join(' ')} with apt-get`)
  const update = spawnSync('apt-get', ['update'], { stdio: 'inherit', env })
  if (update.status !== 0) return false
  const install = spawnSync('apt-get', ['install', '-y', ...packages], { stdio: 'inherit', env })
  return install.status === 0
}

/** @returns {{ path: string | null, message?: string }} */
export function ensureChromium({ install = true } = {}) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  let found = findChromium()
  const missing = []
  if (!found) missing.push('chromium')
  if (!existsSync(CJK_FONT)) missing.push('fonts-noto-cjk')
  if (missing.length > 0 && install && isRoot) {
    aptInstall(missing)
    found = findChromium()
  }
  if (!found) {
    console.log('Chromium not found (looked at CHROME_PATH and /usr/bin/chromium); install it with:')
    console.log(INSTALL_HINT)
    return { path: null, message: 'chromium missing' }
  }
  if (!existsSync(CJK_FONT)) console.warn(`fonts-noto-cjk missing: Chinese text will not render; ${INSTALL_HINT}`)
  return { path: found }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { path } = ensureChromium()
  if (path) console.log(path)
  process.exit(path ? 0 : 1)
}

import v8 from 'node:v8'
import { buildApp } from './app.js'
import { DEFAULT_ADMIN_PASSWORD, loadConfig } from './config.js'
import { seedDemoCompany } from './demo/demo-company.js'
import { stopOnSignals } from './platform/graceful-stop.js'

// V8 lets the heap grow up to 4x its live size before a full collection, so an import of a million rows
// (live heap ~50 MB, most of what it allocates short-lived) peaked at 455 MB RSS; at 1.5x it peaks at
// ~280 MB for the same time (issue 14, `npm run bench -- import-export`). A full collection of a heap
// this size takes ~10 ms.
v8.setFlagsFromString('--heap-growing-percent=50')
const config = loadConfig()
const app = await buildApp(config)
if (config.demoData) await seedDemoCompany(app)
await app.listen({ port: config.port, host: config.host })
const shown = config.adminPassword === DEFAULT_ADMIN_PASSWORD ? DEFAULT_ADMIN_PASSWORD : '(the ADMIN_PASSWORD you set)'
app.log.info(`${config.systemTitle} is running on http://localhost:${config.port} (database: ${app.services.databases.kind})`)
app.log.info(`sign in as admin / ${shown} (with several tenants: 1000@admin)`)
stopOnSignals(app, config.shutdownTimeoutMs)

import { buildApp } from './app.js'
import { DEFAULT_ADMIN_PASSWORD, loadConfig } from './config.js'
import { seedDemoCompany } from './demo/demo-company.js'

const config = loadConfig()
const app = await buildApp(config)
if (config.demoData) await seedDemoCompany(app)
await app.listen({ port: config.port, host: config.host })
const shown = config.adminPassword === DEFAULT_ADMIN_PASSWORD ? DEFAULT_ADMIN_PASSWORD : '(the ADMIN_PASSWORD you set)'
console.log(`\n  ${config.systemTitle} is running on http://localhost:${config.port}  (database: ${app.services.databases.kind})`)
console.log(`  Sign in as admin / ${shown}   (with several tenants: 1000@admin)\n`)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void app.close().then(() => process.exit(0)))

import type { TestProject } from 'vitest/node'
import { makeDatabaseTemplate, type DatabaseTemplate } from '../../support/test-app.js'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate
  }
}

/**
 * Once per `vitest --project api` run: a migrated, seeded database (SQLite files or a PostgreSQL
 * database, after TEST_DB) that every test app copies instead of migrating and seeding its own
 * (test/api/setup/use-template.ts hands it to test/support/test-app.ts). Removed when the run ends.
 */
export default async function setup(project: TestProject) {
  const template = await makeDatabaseTemplate()
  project.provide('databaseTemplate', { dbKind: template.dbKind, dataDir: template.dataDir, database: template.database })
  return () => template.drop()
}

import type { Databases } from '../db/databases.js'
import { migrate, platformMigrations, tenantMigrations } from '../db/migrations.js'
import { existingSchema, linkTable, syncEntityTable } from './entity-tables.js'
import type { EntityRegistry } from './entity-registry.js'
import type { FieldModel } from '../../shared/metadata/entity-model.js'
import { RecordCodec } from './record-codec.js'
import { ensureSingleton, keptEntities } from './singletons.js'
import { ensureCodeRules } from './code-rules.js'
import { hasRowCounter, installRowCounters } from '../db/row-counter.js'
import { installGrantsNotify } from '../platform/grants-changed.js'
import { installSettingsNotify } from '../platform/settings-cache.js'

/** Who writes the rows provisioning creates (audit columns). */
const PROVISIONER = { userId: 'system', name: '系统' }

/** Platform database: hand migrations, then the platform-scope entity tables. */
export async function provisionPlatform(databases: Databases, registry: EntityRegistry): Promise<void> {
  await databases.ensureSchema('platform')
  const db = databases.platform
  const schema = databases.schemaOf('platform')
  await migrate(db, { label: 'platform', migrations: platformMigrations(databases.kind), schema })
  const tables = await existingSchema(db, databases.kind, schema)
  for (const entity of registry.all().filter((e) => e.scope === 'platform'))
    await syncEntityTable(db, databases.kind, entity, registry.enums, tables)
  await installRowCounters(db, databases.kind, schema, countedTables(registry, 'platform'))
}

const countedTables = (registry: EntityRegistry, scope: 'platform' | 'tenant') =>
  registry.all().filter((e) => e.scope === scope && hasRowCounter(e)).map((e) => e.table)

/**
 * One tenant database: hand migrations, every tenant-scope entity table, then the default row of each
 * configuration (singleton) entity and the rule of each numbered field, so reading one never has to write.
 */
export async function migrateTenant(databases: Databases, registry: EntityRegistry, tenantId: string): Promise<void> {
  await databases.ensureSchema({ tenantId })
  const db = databases.tenant(tenantId)
  const schema = databases.schemaOf(tenantId)
  await migrate(db, { label: `tenant ${tenantId}`, migrations: tenantMigrations(databases.kind), schema })
  const tables = await existingSchema(db, databases.kind, schema)
  for (const entity of registry.all().filter((e) => e.scope === 'tenant'))
    await syncEntityTable(db, databases.kind, entity, registry.enums, tables)
  await installRowCounters(db, databases.kind, schema, countedTables(registry, 'tenant'))
  const user = registry.get('user')
  await installGrantsNotify(db, databases.kind, schema, linkTable(user, user.byName.get('deptIds') as FieldModel))
  await installSettingsNotify(db, databases.kind, schema, keptEntities(registry).map((e) => e.table))
  const configurations = registry.all().filter((e) => e.scope === 'tenant' && e.file.singleton === true)
  const codec = new RecordCodec(databases.kind, registry.enums)
  for (const entity of configurations) await ensureSingleton(codec, db, PROVISIONER, entity)
  await ensureCodeRules(db, registry, PROVISIONER)
}

import type { AppConfig } from '../config.js'
import type { Databases } from '../db/databases.js'
import type { EntityRegistry } from './entity-registry.js'
import type { EntityStore } from './entity-store.js'
import type { HookRegistry } from './entity-hooks.js'
import type { RecordCodec } from './record-codec.js'
import type { SessionStore } from '../platform/sessions.js'
import type { PermissionResolver } from '../platform/permissions.js'
import type { SettingsCache } from '../platform/settings-cache.js'
import type { CodeSender } from '../platform/code-sender.js'
import type { DocumentStore } from './document-store.js'
import type { MessageBus } from '../realtime/message-bus.js'
import type { AppMetrics } from '../platform/app-metrics.js'
import type { ApiTokenStore } from '../platform/api-tokens.js'

/** What every area plugin works with; built once in app.ts. */
export interface Services {
  config: AppConfig
  databases: Databases
  registry: EntityRegistry
  codec: RecordCodec
  store: EntityStore
  hooks: HookRegistry
  /** The lifecycle of every document (approval state machine, numbering, effects). */
  documents: DocumentStore
  sessions: SessionStore
  /** API tokens (`Authorization: Bearer …`), acting as their user narrowed to their keys. */
  apiTokens: ApiTokenStore
  permissions: PermissionResolver
  /** The configuration rows as this process last read them (PostgreSQL; engine/singletons.ts reads through it). */
  settings: SettingsCache
  sender: CodeSender
  /** The realtime message bus (realtime/publish.ts sends through it). */
  bus: MessageBus
  /** What `GET /metrics` reports (requests, jobs, imports, sockets, database). */
  metrics: AppMetrics
  /** The tenant that operates the platform (tenants, modules, open domains). */
  operatorTenantId: string
  /** Tenant ids that have finished migration and seed. */
  tenantIds(): Promise<string[]>
  /** Migrates and seeds one tenant database (new tenants and start-up). */
  provisionTenant(tenantId: string, name: string): Promise<void>
}

import { defineCall } from './call.js'

/** The one row of a configuration entity (`singleton`): its fields by wire name. */
export type SingletonValues = Record<string, unknown>

/**
 * The calls of a configuration entity (purchase, sale, retail, take-stock parameters) from its
 * `api.base`: the server registers them (engine/singleton-routes.ts) and the settings page calls them.
 */
export function singletonCalls<V extends SingletonValues = SingletonValues>(base: string) {
  return {
    read: defineCall<void, V>('GET', base),
    save: defineCall<Partial<V>, null>('PUT', base),
  }
}

import type { EntityFile } from '../generated/entity.js'
import type { EnumsFile } from '../generated/enums.js'
import { defineCall } from './call.js'

/** What the browser runtime renders from: every entity file and the enumerations, as the server loaded them. */
export interface MetaBundle {
  entities: Record<string, EntityFile>
  enums: EnumsFile
}

export const meta = {
  bundle: defineCall<void, MetaBundle>('GET', '/meta/bundle'),
}

import { defineCall } from './call.js'

/** A built-in job handler this tenant may schedule. */
export interface JobHandler {
  key: string
  label: string
}

export const qrtz = {
  handlers: defineCall<void, JobHandler[]>('GET', '/qrtz/handlers'),
}

import { call } from '../api/call.js'
import { system } from '../../shared/contracts/system.js'

/**
 * The code a new record's form proposes for a numbered field (`numbering` in its entity file), taken
 * from the tenant's rule; undefined when the user may not take one (the field then stays empty).
 */
export const nextCode = (entity: string, field: string): Promise<string | undefined> =>
  call(system.nextCode, { target: `${entity}.${field}` }, { hideError: true }).then(
    (answer) => answer.code,
    () => undefined,
  )

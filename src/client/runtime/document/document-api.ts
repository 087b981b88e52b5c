import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { documentCalls, type DocumentCalls } from '../../../shared/contracts/document-calls.js'
import { tr } from '../../i18n/use-tr.js'

export type { DocumentRecord } from '../../../shared/contracts/document-calls.js'

/** The document family (000 §7 "Document APIs") of one document's `api.base`. */
export function documentCallsOf(entity: EntityModel): DocumentCalls {
  const base = entity.file.api?.base
  if (!base) throw new Error(tr(`${entity.label}没有接口`))
  return documentCalls(base)
}

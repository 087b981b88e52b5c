import { declaredCalls } from '../../shared/contracts/document-calls.js'
import type { DocumentSection } from '../../shared/metadata/document-model.js'
import type { Services } from './services.js'

function sectionOf(services: Services, name: string): DocumentSection {
  const section = services.registry.get(name).file.document
  if (!section) throw new Error(`${name} is not a document`)
  return section as DocumentSection
}

/**
 * The calls a document file declares beyond its family, as the module that serves them registers
 * them: from the same declaration the document page calls, so the path is never spelled twice.
 */
export const declaredCallOf = {
  /** `lines.pick.candidates` of the document `name`. */
  candidates(services: Services, name: string) {
    const candidates = sectionOf(services, name).lines.pick?.candidates
    if (!candidates) throw new Error(`${name} declares no line candidates`)
    return declaredCalls.candidates(candidates)
  },
  /** `productSearch` of the document `name` (documents of one module may share it). */
  productSearch(services: Services, name: string) {
    const path = sectionOf(services, name).productSearch
    if (!path) throw new Error(`${name} declares no product search`)
    return declaredCalls.productSearch(path)
  },
}

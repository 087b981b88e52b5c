import type { EntityModel } from '../../shared/metadata/entity-model.js'
import type { DocumentSection } from '../../shared/metadata/document-model.js'

/** A document kind: its header and line entities and the `document` section of its file. */
export interface DocumentModel {
  name: string
  subject: string
  section: DocumentSection
  header: EntityModel
  lines: EntityModel
}

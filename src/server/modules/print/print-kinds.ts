import type { DocumentModel } from '../../engine/document-kind.js'
import { documentModel } from '../../engine/document-routes.js'
import type { Services } from '../../engine/services.js'
import { translatorOf } from '../../../shared/i18n/all-catalogues.js'
import type { Locale } from '../../../shared/i18n/locales.js'
import { EnumCatalog } from '../../../shared/metadata/enum-catalog.js'
import type { DocumentSection } from '../../../shared/metadata/document-model.js'
import type { PrintKind } from '../../../shared/contracts/print.js'
import type { PrintModels } from '../../../shared/print/print-pages.js'
import { headerPrintFields, lineColumnLabels, PRINT_SPECIALS, SPECIAL_LABELS } from '../../../shared/print/print-template.js'

/** The document kinds that print: every document file with an API (its list's permission prefix). */
export function printableKinds(services: Services): DocumentModel[] {
  return services.registry
    .documents()
    .filter((h) => h.file.api?.permission)
    .map((h) => documentModel(services, h))
}

/** Who may print a kind: whoever may read its documents. */
export const printKeys = (doc: DocumentModel): string[] => [`${doc.header.file.api?.permission}:query`]

const enumsByLocale = new Map<Locale, EnumCatalog>()

/** The header, lines, enumerations and translator of a kind in the reader's language. */
export function printModels(services: Services, doc: DocumentModel, locale: Locale): PrintModels {
  let enums = enumsByLocale.get(locale)
  if (!enums) enumsByLocale.set(locale, (enums = new EnumCatalog(services.registry.enumsFile, locale)))
  return { header: doc.header, lines: doc.lines, enums, t: translatorOf(locale) }
}

/** What the designer lists for a kind, labelled in the reader's language (labels come from the kind's file). */
export function printKind(doc: DocumentModel, locale: Locale): PrintKind {
  const t = translatorOf(locale)
  return {
    kind: doc.name,
    label: t(doc.subject),
    permission: String(doc.header.file.api?.permission),
    fields: headerPrintFields(doc.header).map((f) => ({ name: f.name, label: t(f.label) })),
    lineColumns: [...lineColumnLabels(doc.lines, doc.header.file.document as DocumentSection)].map(([name, label]) => ({ name, label: t(label) })),
    specials: PRINT_SPECIALS.map((name) => ({ name, label: t(SPECIAL_LABELS[name]) })),
  }
}

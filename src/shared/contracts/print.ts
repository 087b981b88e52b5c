import { defineCall, type FileAnswer } from './call.js'
import type { PaperPreset } from '../print/paper.js'
import type { PrintTemplateContent } from '../print/print-template.js'

/** A template as listed: which kind, its name, whether the kind prints with it by default, its current version. */
export interface PrintTemplateRow {
  id: string
  kind: string
  kindName: string
  name: string
  isDefault: boolean
  version: number
  updateBy: string | null
  updateTime: string | null
}

export interface PrintTemplateDetail extends PrintTemplateRow {
  content: PrintTemplateContent
}

/** What the designer offers for one document kind: its bindable header fields, line columns and print specials, labelled in the reader's language. */
export interface PrintKind {
  kind: string
  label: string
  /** Where its documents live (its list's permission prefix), so a page can offer 打印 for it. */
  permission: string
  fields: { name: string; label: string }[]
  lineColumns: { name: string; label: string }[]
  specials: { name: string; label: string }[]
}

/** The file an export writes and an import reads. */
export interface PrintTemplateFile {
  format: string
  name: string
  content: PrintTemplateContent
}

/**
 * Print templates (issue 34; not in the spec): per document kind, versioned, exported and imported as
 * a file; printing one or many documents of a kind to one PDF.
 */
export const print = {
  kinds: defineCall<void, PrintKind[]>('GET', '/system/print-template/kinds'),
  query: defineCall<{ kind?: string }, PrintTemplateRow[]>('GET', '/system/print-template/query'),
  get: defineCall<{ id: string; version?: number | string }, PrintTemplateDetail>('GET', '/system/print-template'),
  builtin: defineCall<{ kind: string; paper?: PaperPreset }, PrintTemplateContent>('GET', '/system/print-template/builtin'),
  create: defineCall<{ kind: string; name: string; isDefault?: boolean; content: PrintTemplateContent }, string>('POST', '/system/print-template'),
  /** Saves a new version; `version` is the one the editor started from (a save over a newer one is refused). */
  modify: defineCall<{ id: string; name: string; version: number; content: PrintTemplateContent }, number>('PUT', '/system/print-template'),
  setDefault: defineCall<{ id: string }, null>('PATCH', '/system/print-template/default'),
  delete: defineCall<{ id: string }, null>('DELETE', '/system/print-template'),
  export: defineCall<{ id: string }, FileAnswer>('GET', '/system/print-template/export'),
  import: defineCall<{ kind: string; file: PrintTemplateFile }, string>('POST', '/system/print-template/import'),
  /** The templates a reader of the kind may print with (name and default mark only). */
  choices: defineCall<{ kind: string }, { id: string; name: string; isDefault: boolean }[]>('GET', '/print/templates'),
  /** The PDF of documents of one kind (ids comma separated, in the order given) with a template, or the kind's default. */
  pdf: defineCall<{ kind: string; ids: string; templateId?: string; version?: number }, FileAnswer>('GET', '/print/pdf'),
} as const

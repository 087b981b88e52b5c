import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MAX_LINES, maxLinesOf, type DocumentSection } from '../../src/shared/metadata/document-model.js'

const root = path.resolve(import.meta.dirname, '../..')
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'))

describe('the maximum line count of a document', () => {
  it('defaults to what the meta-schema documents', () => {
    const meta = read('schemas/meta/entity.schema.json')
    expect(meta.definitions.document.properties.maxLines.default).toBe(DEFAULT_MAX_LINES)
    expect(maxLinesOf({} as DocumentSection)).toBe(1000)
  })

  it('is said in every document file', () => {
    const dir = path.join(root, 'schemas/documents')
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const doc = read(`schemas/documents/${file}`).document as DocumentSection
      expect(doc.maxLines, file).toBeGreaterThanOrEqual(1)
      expect(maxLinesOf(doc), file).toBe(doc.maxLines)
    }
  })
})

import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { EntityRegistry } from '../../src/server/engine/entity-registry.js'
import { documentHookFactories } from '../../src/server/engine/document-hooks.js'
import { DOCUMENT_HOOKS, DOCUMENT_HOOKS_SOURCE } from '../../src/server/domain/documents/document-hooks.js'
import { buildApp } from '../../src/server/app.js'
import { loadConfig } from '../../src/server/config.js'

/**
 * Every document kind with the hooks it runs, as the start binds them from the files' `document.hooks`
 * and domain/documents/document-hooks.ts. A document added, renamed or given other hooks changes this table on purpose.
 */
const EXPECTED: Record<string, string | null> = {
  customerSettleCheckSheet: 'settleCheckSheet',
  customerSettleFeeSheet: 'settleItemSheet',
  customerSettlePreSheet: 'settleItemSheet',
  customerSettleSheet: 'settleSheet',
  logisticsSheet: 'logisticsSheet',
  preTakeStockSheet: 'preTakeStockSheet',
  purchaseOrder: 'purchaseOrder',
  purchaseReturn: 'purchaseReturn',
  receiveSheet: 'receiveSheet',
  retailOutSheet: 'retailOutSheet',
  retailReturn: 'retailReturn',
  saleOrder: 'saleOrder',
  saleOutSheet: 'saleOutSheet',
  saleReturn: 'saleReturn',
  scTransferOrder: 'scTransferOrder',
  settleCheckSheet: 'settleCheckSheet',
  settleFeeSheet: 'settleItemSheet',
  settlePreSheet: 'settleItemSheet',
  settleSheet: 'settleSheet',
  stockAdjustSheet: null,
  stockCostAdjustSheet: 'stockCostAdjustSheet',
  takeStockSheet: 'takeStockSheet',
}

const MISSING_HOOKS_DIR = path.resolve(import.meta.dirname, '../fixtures/documents-missing-hooks')

describe('document hooks, found by the document file at start-up', () => {
  const registry = new EntityRegistry()

  it('lists every document with its hooks, each bound to the factory of that name', () => {
    const bound = documentHookFactories(registry, DOCUMENT_HOOKS, DOCUMENT_HOOKS_SOURCE)
    const listed = Object.fromEntries(registry.documents().map((d) => [d.name, d.file.document?.hooks ?? null]))
    expect(listed).toEqual(EXPECTED)
    for (const [doc, hooks] of Object.entries(EXPECTED)) {
      if (hooks) expect(bound.get(doc), doc).toBe(DOCUMENT_HOOKS[hooks])
      else expect(bound.has(doc), doc).toBe(false)
    }
    // No factory is listed that no document names.
    expect(Object.keys(DOCUMENT_HOOKS).sort()).toEqual([...new Set(Object.values(EXPECTED).filter(Boolean))].sort())
  })

  it('a document file naming hooks that do not exist stops the binding, naming the file and the hooks', () => {
    const withTypo = new EntityRegistry([MISSING_HOOKS_DIR])
    expect(() => documentHookFactories(withTypo, DOCUMENT_HOOKS, DOCUMENT_HOOKS_SOURCE)).toThrow(
      /documents-missing-hooks[/\\]shelf-count-sheet\.json: document shelfCountSheet names hooks "shelfCountSheetTypo" that do not exist/,
    )
  })

  it('hooks that no document names stop the binding too', () => {
    const extra = { ...DOCUMENT_HOOKS, shelfCountSheet: () => ({}) }
    expect(() => documentHookFactories(registry, extra, 'the test registry')).toThrow('the test registry: document hooks "shelfCountSheet" named by no document file')
  })

  it('the app build fails on the fixture document, before it opens a database', async () => {
    const config = { ...loadConfig({ DATA_DIR: path.join(MISSING_HOOKS_DIR, 'never-created') }), databaseUrl: 'postgres://nobody@127.0.0.1:9/none' }
    await expect(buildApp(config, { entityDirs: [MISSING_HOOKS_DIR] })).rejects.toThrow(/shelf-count-sheet\.json.*"shelfCountSheetTypo"/)
  })
})

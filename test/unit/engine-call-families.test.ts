import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EntityFile } from '../../src/shared/generated/entity.js'
import { declaredCalls, documentCalls } from '../../src/shared/contracts/document-calls.js'
import { pickerCall, pickerCalls } from '../../src/shared/contracts/picker-calls.js'
import { singletonCalls } from '../../src/shared/contracts/singleton-calls.js'
import { PRE_TAKE_STOCK_BASE, TAKE_STOCK_CONFIG_BASE, TRANSFER_BASE, takeStock, transfer } from '../../src/shared/contracts/stock.js'
import { catalogueRows } from '../support/endpoint-catalogue.js'

/**
 * The engine's call families are built from a file's `api.base`, a picker's `kind` or a declared path,
 * by the builders both the server's routes and the screens use: these hold the builders to the spec's
 * catalogue, so a misspelt segment in a builder fails here for every document kind at once.
 */
const schemas = path.resolve(import.meta.dirname, '../../schemas')
const read = (dir: string) =>
  readdirSync(path.join(schemas, dir))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(schemas, dir, f), 'utf8')) as EntityFile)
const documents = read('documents').filter((f) => f.api && f.document)
const entities = read('entities')
const inSpec = new Set(catalogueRows.map((r) => `${r.method} ${r.url}`))
const spelled = (c: { method: string; path: string }) => `${c.method} ${c.path}`
const byName = (name: string) => [...documents, ...entities].find((f) => f.name === name)!

describe('document family', () => {
  it('every call the engine serves for a document kind is the spec’s call (method and path)', () => {
    expect(documents.length).toBeGreaterThan(15)
    for (const file of documents) {
      const calls = documentCalls(file.api!.base)
      const served: (keyof typeof calls)[] = ['query', 'export', 'get', 'create', 'modify', 'remove', 'removeBatch']
      if (file.document!.approval !== false) served.push('createAndApprove', 'approvePass', 'approveRefuse', 'approvePassBatch', 'approveRefuseBatch')
      for (const name of served) expect(inSpec, `${file.name}.${name}`).toContain(spelled(calls[name]))
    }
  })

  it('params travel where the engine reads them: GET in the query, writes in the body, export conditions in the query', () => {
    const calls = documentCalls('/purchase/order')
    expect(calls.get).toMatchObject({ method: 'GET', path: '/purchase/order', paramsIn: 'query' })
    expect(calls.approveRefuseBatch).toMatchObject({ method: 'PATCH', path: '/purchase/order/approve/refuse/batch', paramsIn: 'body' })
    expect(calls.export).toMatchObject({ method: 'POST', path: '/purchase/order/export', paramsIn: 'query' })
  })

  it('declared calls take their path from the declaration: reads are GET, a row action keeps its method', () => {
    const reads: [{ method: string; path: string }, string][] = []
    const actions: [{ method: string; path: string }, { method: string; path: string }][] = []
    for (const file of documents) {
      const doc = file.document!
      if (doc.follows) reads.push([declaredCalls.sourceLoader(doc.follows), doc.follows.loader])
      if (doc.paymentDate) reads.push([declaredCalls.paymentDate(doc.paymentDate), doc.paymentDate.path])
      if (doc.productSearch) reads.push([declaredCalls.productSearch(doc.productSearch), doc.productSearch])
      if (doc.lines.pick?.candidates) reads.push([declaredCalls.candidates(doc.lines.pick.candidates), doc.lines.pick.candidates.path])
      for (const c of doc.lineCalcs ?? []) reads.push([declaredCalls.lineCalc(c), c.path])
      for (const a of doc.rowActions ?? []) if (a.call) actions.push([declaredCalls.rowAction(a.call), a.call])
    }
    expect(reads.length).toBeGreaterThan(15)
    expect(actions.length).toBeGreaterThan(2)
    for (const [c, declared] of reads) expect(c).toMatchObject({ method: 'GET', path: declared, paramsIn: 'query' })
    for (const [c, declared] of actions) expect(c).toMatchObject({ method: declared.method.toUpperCase(), path: declared.path })
  })
})

describe('picker family', () => {
  it('a kind’s page and load calls are /selector/{kind} and its /load, as the spec spells them for the catalogued kinds', () => {
    expect(pickerCall('product')).toMatchObject({ method: 'GET', path: '/selector/product', paramsIn: 'query' })
    expect(pickerCalls('takestock/pre').load).toMatchObject({ method: 'POST', path: '/selector/takestock/pre/load', paramsIn: 'body' })
    const kinds = entities.map((f) => f.views?.picker?.kind).filter((k): k is string => Boolean(k))
    const catalogued = kinds.filter((k) => inSpec.has(spelled(pickerCall(k))))
    expect(catalogued.length).toBeGreaterThan(20)
    for (const kind of catalogued) expect(inSpec, kind).toContain(spelled(pickerCalls(kind).load))
  })
})

describe('fixed calls of stock-taking and transfers', () => {
  it('the bases the contracts name are the ones the engine serves from the files', () => {
    expect(TAKE_STOCK_CONFIG_BASE).toBe(byName('takeStockConfig').api!.base)
    expect(PRE_TAKE_STOCK_BASE).toBe(byName('preTakeStockSheet').api!.base)
    expect(TRANSFER_BASE).toBe(byName('scTransferOrder').api!.base)
  })

  it('the configuration is read and saved as a singleton, and the spec has the fixed calls', () => {
    expect(takeStock.config).toEqual(singletonCalls(TAKE_STOCK_CONFIG_BASE))
    for (const c of [takeStock.config.read, takeStock.config.save, takeStock.planProducts, takeStock.pre.get, transfer.get, transfer.receive, transfer.receiveDetail])
      expect(inSpec).toContain(spelled(c))
  })
})

import { readFileSync } from 'node:fs'
import path from 'node:path'
import Decimal from 'decimal.js'
import { describe, expect, it } from 'vitest'
import type { EntityFile } from '../../src/shared/generated/entity.js'
import { documentLinesFile, type DocumentSection } from '../../src/shared/metadata/document-model.js'
import { buildEntityModel } from '../../src/shared/metadata/entity-model.js'
import { discountAgrees, discountFieldsOf, keepDiscount, productDefaults } from '../../src/shared/metadata/line-discount.js'

const documentFile = (name: string) =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../schemas/documents/${name}.json`), 'utf8')) as EntityFile
const linesOf = (name: string) => buildEntityModel(documentLinesFile(documentFile(name)))
const d = (v: string) => new Decimal(v)

describe('lines from the product master (defaultFrom)', () => {
  const product = { id: 'p', purchasePrice: '8.4', salePrice: '12.50', retailPrice: '13.90', taxRate: 13, saleTaxRate: 9 }

  it('fills sale lines from the sale price and the output tax rate', () => {
    expect(productDefaults(linesOf('sale-out-sheet'), product)).toEqual({ oriPrice: '12.50', taxPrice: '12.50', taxRate: 9 })
    expect(productDefaults(linesOf('sale-order'), product)).toEqual({ oriPrice: '12.50', taxPrice: '12.50', taxRate: 9 })
  })

  it('fills retail lines from the retail price and purchase lines from the purchase price and input rate', () => {
    expect(productDefaults(linesOf('retail-out-sheet'), product)).toEqual({ oriPrice: '13.90', taxPrice: '13.90', taxRate: 9 })
    expect(productDefaults(linesOf('purchase-order'), product)).toEqual({ taxPrice: '8.40', taxRate: 13 })
  })

  it('copies nothing the product lacks, and nothing onto documents that declare no defaults', () => {
    expect(productDefaults(linesOf('sale-out-sheet'), { id: 'p', salePrice: null, saleTaxRate: 0 })).toEqual({ taxRate: 0 })
    expect(productDefaults(linesOf('stock-adjust-sheet'), product)).toEqual({})
  })
})

describe('price, original price and discount rate', () => {
  const fields = discountFieldsOf(documentFile('sale-out-sheet').document as DocumentSection)!

  it('are declared by sale and retail documents only', () => {
    expect(fields).toEqual({ price: 'taxPrice', original: 'oriPrice', rate: 'discountRate' })
    expect(discountFieldsOf(documentFile('purchase-order').document as DocumentSection)).toBeUndefined()
  })

  it('typing the price recomputes the rate, half-up to 2 places', () => {
    expect(keepDiscount({ oriPrice: '30.00', taxPrice: '28.50', discountRate: '100' }, 'taxPrice', fields)).toMatchObject({ discountRate: '95.00' })
    expect(keepDiscount({ oriPrice: '3.00', taxPrice: '2', discountRate: '100' }, 'taxPrice', fields)).toMatchObject({ discountRate: '66.67' })
    // No original price yet: the typed price becomes it.
    expect(keepDiscount({ taxPrice: '7.5' }, 'taxPrice', fields)).toMatchObject({ oriPrice: '7.50', discountRate: '100.00' })
  })

  it('typing the rate or the original price recomputes the price', () => {
    expect(keepDiscount({ oriPrice: '13.90', taxPrice: '13.90', discountRate: '85' }, 'discountRate', fields)).toMatchObject({ taxPrice: '11.82' })
    expect(keepDiscount({ oriPrice: '20', taxPrice: '11.12', discountRate: '80' }, 'oriPrice', fields)).toMatchObject({ taxPrice: '16.00' })
    // Other fields leave the three alone.
    const line = { oriPrice: '20', taxPrice: '1', discountRate: '80', orderNum: 2 }
    expect(keepDiscount(line, 'orderNum', fields)).toBe(line)
  })

  it('agree when either relation holds; a gift agrees with any rate', () => {
    expect(discountAgrees(d('333.33'), d('1000'), d('33.33'))).toBe(true)
    expect(discountAgrees(d('1.00'), d('3'), d('33.33'))).toBe(true)
    expect(discountAgrees(d('28.50'), d('30'), d('100'))).toBe(false)
    expect(discountAgrees(d('0'), d('30'), d('100'))).toBe(true)
    expect(discountAgrees(d('5'), d('0'), d('100'))).toBe(false)
  })
})

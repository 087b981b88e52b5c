import Decimal from 'decimal.js'
import { PDFParse } from 'pdf-parse'
import { afterAll, describe, expect, it } from 'vitest'
import { EntityRegistry } from '../../src/server/engine/entity-registry.js'
import { createPdfRenderer } from '../../src/server/modules/print/pdf-renderer.js'
import { renderPdf } from '../../src/server/modules/print/render-pdf.js'
import { translatorOf } from '../../src/shared/i18n/all-catalogues.js'
import { linesEntityName } from '../../src/shared/metadata/document-model.js'
import { builtinTemplate } from '../../src/shared/print/builtin-template.js'
import { pageSlices } from '../../src/shared/print/print-pages.js'
import { rmbCapitals } from '../../src/shared/print/rmb-capitals.js'

const registry = new EntityRegistry()
const header = registry.get('purchaseOrder')
const lines = registry.get(linesEntityName('purchaseOrder'))
const t = translatorOf('zh-CN')
const models = { header, lines, enums: registry.enums, t }
const engine = createPdfRenderer()
afterAll(() => engine.close())

/** A purchase order of `n` lines: line i has quantity i and price i.25. */
function order(n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    productId: `p${i + 1}`,
    productCode: `SP${String(i + 1).padStart(4, '0')}`,
    productName: `商品${i + 1}`,
    unit: '个',
    orderNum: i + 1,
    taxPrice: `${i + 1}.25`,
    isGift: false,
    taxRate: 13,
  }))
  const total = rows.reduce((s, r) => s.plus(new Decimal(r.taxPrice).times(r.orderNum)), new Decimal(0)).toFixed(2)
  return { header: { code: 'CGDD202611280001', scName: '一号仓', supplierName: '甲供应商', totalAmount: total, expectArriveDate: '2026-12-01' }, lines: rows, total }
}

describe('page slices', () => {
  it('puts as many rows on a page as fit under the head, and a too tall row on a page of its own', () => {
    expect(pageSlices([5, 5, 5, 5, 5], 5, 20)).toEqual([[0, 3], [3, 5]])
    expect(pageSlices([5, 30, 5], 5, 20)).toEqual([[0, 1], [1, 2], [2, 3]])
    expect(pageSlices([], 5, 20)).toEqual([[0, 0]])
  })
})

describe('printing a 100-line purchase order on 241 × 93.1 mm paper', () => {
  it('breaks the line table across pages with its head on every page, each page its subtotal, the total and capitals on the last', async () => {
    const content = builtinTemplate(header, lines, t, '241x93.1')
    const doc = order(100)
    const { pdf, pages } = await renderPdf(engine, content, models, [doc], '2026-11-28 10:00:00')
    const text = await new PDFParse({ data: pdf }).getText()
    expect(text.total).toBe(pages[0])
    // The table area of this paper holds a handful of rows: 100 lines cannot fit on fewer than 10 pages.
    expect(pages[0]).toBeGreaterThanOrEqual(10)
    let next = 1
    let sum = new Decimal(0)
    text.pages.forEach((page, i) => {
      const body = page.text
      expect(body).toContain('序号')
      expect(body).toContain('采购订单')
      expect(body).toContain('CGDD202611280001')
      expect(body).toContain(`第${i + 1}页/共${pages[0]}页`)
      // This page's lines, in order, continuing the previous page.
      const numbers = [...body.matchAll(/商品(\d+)/g)].map((m) => Number(m[1]))
      expect(numbers.length).toBeGreaterThan(0)
      expect(numbers).toEqual(numbers.map((_, k) => next + k))
      const pageSum = numbers.reduce((s, n) => s.plus(new Decimal(`${n}.25`).times(n)), new Decimal(0))
      expect(body).toMatch(new RegExp(`本页小计：\\s*${pageSum.toFixed(2)}`))
      next += numbers.length
      sum = sum.plus(pageSum)
      if (i < text.pages.length - 1) expect(body).not.toContain('元')
    })
    expect(next).toBe(101)
    expect(sum.toFixed(2)).toBe(doc.total)
    const last = text.pages.at(-1)!.text
    expect(last).toContain(doc.total)
    expect(last).toContain(rmbCapitals(doc.total))
  }, 60_000)

  it('prints several documents in one PDF, each starting its own page numbering', async () => {
    const content = builtinTemplate(header, lines, t, 'A4')
    const { pdf, pages } = await renderPdf(engine, content, models, [order(3), order(3), order(3)], '2026-11-28 10:00:00')
    const text = await new PDFParse({ data: pdf }).getText()
    expect(pages).toEqual([1, 1, 1])
    expect(text.total).toBe(3)
    for (const page of text.pages) expect(page.text).toContain('第1页/共1页')
  }, 60_000)
})

/**
 * Printing (issue 34): a purchase order of 1,000 lines to one PDF with the built-in A4 layout and on
 * 241 × 93.1 mm forms, and a batch of 100 ten-line orders in one PDF: time (cold = first print of the
 * process, which reads and parses the 10.5 MB Chinese font; warm = median of the next runs), pages,
 * PDF size and the memory held (resident set and heap growth). Figures only, never pass/fail.
 */
import { EntityRegistry } from '../../src/server/engine/entity-registry.js'
import { createPdfRenderer } from '../../src/server/modules/print/pdf-renderer.js'
import { renderPdf, type PrintedDocument } from '../../src/server/modules/print/render-pdf.js'
import { translatorOf } from '../../src/shared/i18n/all-catalogues.js'
import { linesEntityName } from '../../src/shared/metadata/document-model.js'
import { builtinTemplate } from '../../src/shared/print/builtin-template.js'
import type { PaperPreset } from '../../src/shared/print/paper.js'

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const registry = new EntityRegistry()
const header = registry.get('purchaseOrder')
const lines = registry.get(linesEntityName('purchaseOrder'))
const t = translatorOf('zh-CN')
const models = { header, lines, enums: registry.enums, t }
const engine = createPdfRenderer()

function order(n: number, k = 0): PrintedDocument {
  return {
    header: { code: `CGDD2026112800${String(k).padStart(2, '0')}`, scName: '一号仓', supplierName: '华东贸易有限公司', purchaserName: '张三', expectArriveDate: '2026-12-01', totalAmount: '0.00' },
    lines: Array.from({ length: n }, (_, i) => ({
      productCode: `SP${String(i + 1).padStart(5, '0')}`,
      productName: `商品名称${i + 1}`,
      unit: '箱',
      spec: '12瓶/箱',
      orderNum: (i % 50) + 1,
      taxPrice: `${(i % 97) + 1}.35`,
      isGift: false,
      taxRate: 13,
      description: i % 10 === 0 ? '加急' : '',
    })),
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function measure(label: string, preset: PaperPreset, docs: PrintedDocument[]) {
  const content = builtinTemplate(header, lines, t, preset)
  const times: number[] = []
  let pages = 0
  let bytes = 0
  const rss0 = process.memoryUsage().rss
  let peak = rss0
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    const { pdf, pages: perDoc } = await renderPdf(engine, content, models, docs, '2026-11-28 10:00:00')
    times.push(performance.now() - started)
    pages = perDoc.reduce((a, b) => a + b, 0)
    bytes = pdf.length
    peak = Math.max(peak, process.memoryUsage().rss)
  }
  console.log(
    `${label.padEnd(44)} ${preset.padEnd(9)} pages ${String(pages).padStart(4)}  pdf ${mb(bytes).padStart(8)}  ` +
      `median ${median(times).toFixed(0).padStart(6)} ms  per page ${(median(times) / pages).toFixed(1)} ms  rss peak +${mb(peak - rss0)}`,
  )
}

const coldStart = performance.now()
await renderPdf(engine, builtinTemplate(header, lines, t), models, [order(1)], '2026-11-28 10:00:00')
console.log(`cold first print (font read and parsed): ${(performance.now() - coldStart).toFixed(0)} ms, rss ${mb(process.memoryUsage().rss)}`)
await measure('1,000-line purchase order', 'A4', [order(1000)])
await measure('1,000-line purchase order', '241x93.1', [order(1000)])
await measure('batch of 100 ten-line purchase orders', 'A4', Array.from({ length: 100 }, (_, k) => order(10, k)))
await measure('batch of 100 ten-line purchase orders', '241x93.1', Array.from({ length: 100 }, (_, k) => order(10, k)))
console.log(`rss after: ${mb(process.memoryUsage().rss)}, heap used ${mb(process.memoryUsage().heapUsed)}`)
// The worker started from the sources (tsx's loader registered in it) keeps the process alive even unref'd.
await engine.close()

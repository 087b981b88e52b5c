import { readdirSync } from 'node:fs'
import path from 'node:path'
import type { Locator } from '@playwright/test'
import { ANSWER_MARGIN_MS, HOSTILE_DEADLINE_MS, HOSTILE_SCRIPTS } from '../support/hostile-scripts.js'
import { expect, openScreen, rowOf, test, uniqueSuffix, syncEntity } from './helpers.js'

/**
 * The browser sandbox, the path users actually run (issues 11 and 18): list formatters run in the
 * QuickJS Web Worker. A formatter stuck in `while (true) {}`, a memory bomb, deep recursion, a 4 GB
 * `join` and a native loop only the host watchdog can end (it terminates and replaces the worker) each
 * end with the Chinese message on their cells within the deadline and the watchdog's margin; the other columns still format, the list stays usable, and no formatter sees what another
 * column's run left behind. The list is built through the API; only the screen opens in Chromium.
 */

/** Column order of the list below (after the selection column): its cells are found by position. */
const COLUMNS = ['编号', '死循环', '内存炸弹', '深递归', '超大拼接', '原生长循环', '植入全局', '读取全局'] as const
const cellOf = (row: Locator, column: (typeof COLUMNS)[number]): Locator => row.locator('td').nth(1 + COLUMNS.indexOf(column))

/** A cell whose column batch failed as a whole shows its raw value, marked, with the message in a tooltip. */
async function expectBatchError(row: Locator, column: (typeof COLUMNS)[number], messages: RegExp): Promise<void> {
  const marked = cellOf(row, column).locator('.custom-list-format-error')
  await expect(marked).toBeVisible({ timeout: 20_000 })
  await marked.hover()
  // The one appearing, not the previous cell's still fading out (antd marks it `-leave`).
  const tooltip = row.page().locator('.ant-tooltip:visible:not([class*="-leave"])')
  await expect(tooltip).toHaveText(messages)
  await row.page().mouse.move(0, 0)
  // Gone before the next cell is hovered: a tooltip still fading out was read as the next one's second.
  await expect(tooltip).toHaveCount(0)
}

test('runaway formatters end with the Chinese message in their cells; the list stays usable', async ({ page, api }) => {
  test.setTimeout(120_000)
  const s = uniqueSuffix()
  const codes = [`SB${s}1`, `SB${s}2`]
  let path = ''

  await test.step('test data through the API: products, a data object and a custom list with formatters, a menu', async () => {
    const categoryId = await api.post<string>('/basedata/product/category', { code: `SC${s}`, name: `沙箱类目${s}`, available: true })
    const brandId = await api.post<string>('/basedata/product/brand', { code: `SB${s}`, name: `沙箱品牌${s}`, available: true })
    for (const code of codes)
      await api.post('/basedata/product', { code, name: `沙箱商品${code}`, shortName: `简${code}`, spec: '500ml', unit: '瓶', skuCode: `K${code}`, categoryId, brandId, productType: 1, taxRate: 17, saleTaxRate: 17, retailPrice: '2.50', available: true })
    const productEntity = await syncEntity(api, 'base_data_product', '商品')
    const dataObjId = await api.post<string>('/gen/data/obj', { name: `沙箱商品${s}`, mainTableId: productEntity, mainTableAlias: 'p' })
    const listId = await api.post<string>('/gen/custom/list', {
      name: `沙箱列表${s}`,
      dataObjId,
      listType: 2,
      hasPage: true,
      treeData: false,
      idColumn: 'p_id',
      fields: [
        { relaId: 'p_code', name: '编号', formatter: "return '编号:' + cellValue" },
        { relaId: 'p_name', name: '死循环', formatter: 'while (true) {}' },
        { relaId: 'p_sku_code', name: '内存炸弹', formatter: 'const a = []; while (true) a.push(new Array(1e6).fill(1))' },
        { relaId: 'p_retail_price', name: '深递归', formatter: 'const f = (n) => f(n + 1) + 1; return f(0)' },
        { relaId: 'p_spec', name: '超大拼接', formatter: "return new Array(2 ** 32 - 1).join('xxxxxxxx')" },
        // one native call that neither the interrupt nor the memory limit stops: only the watchdog can
        { relaId: 'p_short_name', name: '原生长循环', formatter: 'new Array(2 ** 32 - 1).reverse(); return 1' },
        { relaId: 'p_unit', name: '植入全局', formatter: "globalThis.planted = cellValue; Object.prototype.polluted = 1; Array.prototype.map = null; return '已植入'" },
        { relaId: 'p_category_id', name: '读取全局', formatter: "return [typeof globalThis.planted, typeof ({}).polluted, typeof [].map].join('/')" },
      ],
      queryParams: [{ relaId: 'p_code', name: '编号', queryType: 10 }],
    })
    path = `/sandbox-e2e/${s.toLowerCase()}`
    await api.post('/system/menu', { code: `SBM${s}`, title: `沙箱列表${s}`, display: 1, componentType: 1, component: listId, path, hidden: true, available: true })
  })

  const pane = await openScreen(page, path)
  const search = async () => {
    await pane.getByRole('textbox', { name: '编号', exact: true }).fill(`SB${s}`)
    await pane.getByRole('button', { name: '查询', exact: true }).click()
  }

  await test.step('each runaway column shows its Chinese message; the healthy column formats', async () => {
    await search()
    const row = rowOf(pane, codes[0])
    await expect(cellOf(row, '编号')).toHaveText(`编号:${codes[0]}`, { timeout: 20_000 })
    await expect(cellOf(row, '深递归')).toHaveText('脚本执行错误：调用栈溢出（递归过深）', { timeout: 20_000 })
    await expect(cellOf(row, '超大拼接')).toHaveText(/^脚本执行错误：RangeError: 数组过长/)
    await expectBatchError(row, '死循环', /^脚本执行超时$/)
    await expectBatchError(row, '内存炸弹', /^(脚本内存超出限制|脚本执行超时)$/)
    await expectBatchError(row, '原生长循环', /^脚本执行超时$/)
  })

  await test.step('no column sees what another column run left behind', async () => {
    const row = rowOf(pane, codes[1])
    await expect(cellOf(row, '植入全局')).toHaveText('已植入')
    await expect(cellOf(row, '读取全局')).toHaveText('undefined/undefined/function')
  })

  await test.step('the list stays usable: a new query formats again, the runaway columns fail the same way', async () => {
    await pane.getByRole('textbox', { name: '编号', exact: true }).fill(codes[1])
    const started = Date.now()
    await pane.getByRole('button', { name: '查询', exact: true }).click()
    await expect(pane.locator('.ant-table-row').filter({ hasText: `SB${s}` })).toHaveCount(1)
    const row = rowOf(pane, codes[1])
    await expect(cellOf(row, '编号')).toHaveText(`编号:${codes[1]}`, { timeout: 20_000 })
    await expectBatchError(row, '死循环', /^脚本执行超时$/)
    await expectBatchError(row, '内存炸弹', /^(脚本内存超出限制|脚本执行超时)$/)
    await expectBatchError(row, '原生长循环', /^脚本执行超时$/)
    await expect(cellOf(row, '读取全局')).toHaveText('undefined/undefined/function')
    // every column answered within its deadline (1 s a batch) plus the watchdog's margin, one after another
    expect(Date.now() - started).toBeLessThan(20_000)
  })
})

/**
 * The built `sandbox.worker` on its own, without the page's watchdog (issue 27): the hostile scripts the
 * server pool's unit test runs get their answer from the worker itself within deadline + 5 s, and the
 * worker serves the next request.
 */
test('the built sandbox worker answers hostile scripts by itself within its deadline + 5 s', async ({ page }) => {
  test.setTimeout(120_000)
  const assets = path.join(import.meta.dirname, '../../dist/assets')
  const file = readdirSync(assets).find((f) => /^sandbox\.worker-[\w-]+\.js$/.test(f))
  expect(file, 'npx vite build makes dist/assets/sandbox.worker-*.js').toBeTruthy()
  await page.goto('/')
  const answers = await page.evaluate(
    async ({ url, scripts, deadline }) => {
      const worker = new Worker(url, { type: 'module' })
      const waiting = new Map<number, (m: { ok: boolean; error?: { kind: string } }) => void>()
      const hello = new Promise<void>((resolve) => {
        worker.onmessage = (e: MessageEvent<{ id: number; ok: boolean; error?: { kind: string } }>) => {
          if (e.data.id === 0) resolve()
          else waiting.get(e.data.id)?.(e.data)
        }
      })
      await hello
      const send = (id: number, source: string) =>
        new Promise<{ ok: boolean; error?: { kind: string } }>((resolve) => {
          waiting.set(id, resolve)
          worker.postMessage({ id, op: 'call', source, params: [], argsJson: '[]', timeoutMs: deadline })
        })
      const out: { name: string; ms: number; ok: boolean; kind?: string; next: boolean }[] = []
      let id = 1
      for (const script of scripts) {
        const started = performance.now()
        const answer = await Promise.race([send(id++, script.source), new Promise<null>((r) => setTimeout(() => r(null), deadline + 15_000))])
        const ms = performance.now() - started
        const next = await send(id++, 'return 1 + 1')
        out.push({ name: script.name, ms, ok: answer?.ok ?? true, kind: answer?.error?.kind ?? (answer ? undefined : 'no answer'), next: next.ok })
      }
      worker.terminate()
      return out
    },
    { url: `/assets/${file}`, scripts: HOSTILE_SCRIPTS.map((h) => ({ name: h.name, source: h.source })), deadline: HOSTILE_DEADLINE_MS },
  )
  for (const [i, hostile] of HOSTILE_SCRIPTS.entries()) {
    const answer = answers[i]
    expect(answer.ok, hostile.name).toBe(false)
    expect(hostile.kinds, `${hostile.name}: ${answer.kind}`).toContain(answer.kind)
    expect(answer.ms, hostile.name).toBeLessThan(HOSTILE_DEADLINE_MS + ANSWER_MARGIN_MS)
    expect(answer.next, `${hostile.name}: the next request`).toBe(true)
  }
})

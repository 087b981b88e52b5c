import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { ADMIN, expect, test } from './helpers.js'

/**
 * 商品SPU end to end on the real server: with two sale-property groups (颜色 × 尺码) and their items
 * set up through the API, an administrator adds a SPU through the form, ticks 2 colours × 3 sizes in
 * the SKU matrix (6 lines, what was typed staying with its combination when a tick goes and comes
 * back), fills codes and prices, and saves 6 SKUs in one call; modifying it, unticking a size marks
 * its 2 SKUs 将删除 and saving leaves the other 4 with their ids.
 */

interface Envelope<T> {
  code: number
  msg: string
  data: T
}

interface Sku {
  id: string
  code: string
  name: string
  skuCode: string
  externalCode: string | null
  salePropItem1Id: string | null
  salePropItem2Id: string | null
  purchasePrice: string | null
  salePrice: string | null
  retailPrice: string | null
}

interface Spu {
  id: string
  multiSaleprop: boolean
  salePropGroupIds: string[]
  products: Sku[]
}

/** Test data goes through the API with the administrator's token; the form is what is under test. */
class Api {
  constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  static async login(request: APIRequestContext): Promise<Api> {
    const r = await request.post('/cloud-api/auth/login', { data: ADMIN })
    const body = (await r.json()) as Envelope<{ token: string }>
    expect(body.code, body.msg).toBe(200)
    return new Api(request, body.data.token)
  }

  async get<T>(url: string, params: Record<string, string>): Promise<T> {
    const r = await this.request.get(`/cloud-api${url}`, { params, headers: { 'X-Auth-Token': this.token } })
    const body = (await r.json()) as Envelope<T>
    expect(body.code, `${url}: ${body.msg}`).toBe(200)
    return body.data
  }

  async create(url: string, data: Record<string, unknown>): Promise<string> {
    const r = await this.request.post(`/cloud-api${url}`, { data, headers: { 'X-Auth-Token': this.token } })
    const body = (await r.json()) as Envelope<string>
    expect(body.msg, `${url} ${JSON.stringify(data)}`).toBe('操作成功！')
    return body.data
  }

  async spuByCode(code: string): Promise<Spu> {
    const page = await this.get<{ datas: { id: string }[] }>('/basedata/product/poly/query', { code })
    expect(page.datas).toHaveLength(1)
    return this.get<Spu>('/basedata/product/poly', { id: page.datas[0].id })
  }
}

/** Opens 商品中心 → 商品SPU through the menus and answers its page. */
async function openSpuPage(page: Page): Promise<Locator> {
  await page.getByRole('menu', { name: '顶部菜单' }).getByRole('menuitem', { name: '商品中心' }).click()
  await page.getByRole('menu', { name: '导航菜单' }).getByRole('menuitem', { name: '商品SPU' }).click()
  await expect(page).toHaveURL(/\/product\/poly$/)
  const pane = page.locator('.shell-pane[data-page="/product/poly"]')
  await expect(pane).toBeVisible()
  return pane
}

/** Chooses an option of an antd select by its label (the open dropdown is the last one in the page). */
async function choose(page: Page, scope: Locator, label: string, option: string | RegExp): Promise<void> {
  await scope.getByRole('combobox', { name: label, exact: true }).click({ force: true })
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last()
  await dropdown.locator('.ant-select-item-option').filter({ hasText: option }).first().click()
  await expect(dropdown).toBeHidden()
}

/** Picks rows (by a text they show) in the picker dialog a picker input opens; tree pickers by the node's text. */
async function pick(page: Page, scope: Locator, label: string, dialogName: string, rows: string[], tree = false): Promise<void> {
  await scope.getByLabel(label, { exact: true }).click()
  const dialog = page.getByRole('dialog', { name: dialogName })
  await expect(dialog).toBeVisible()
  for (const text of rows) {
    // On a server many specs filled, the row may be on a later page (or, in the virtual tree, not drawn): search for it
    // by its code first, as a clerk would (查询 here; every picker also searches on Enter);
    // what was ticked stays ticked across searches.
    await dialog.locator('form input').first().fill(text.split(' ')[0])
    await dialog.getByRole('button', { name: '查询' }).click()
    await (tree ? dialog.getByText(text, { exact: true }) : dialog.getByRole('row').filter({ hasText: text })).click()
  }
  await dialog.getByRole('button', { name: '确定' }).click()
  await expect(dialog).toBeHidden()
}

test('a SPU with two sale-property groups saves its 2×3 SKU matrix, and modifying it drops an unticked size', async ({ page, request }) => {
  test.setTimeout(120_000)
  const s = String(Date.now() % 100000).padStart(5, '0')
  const api = await Api.login(request)
  const colour = `颜色${s}`
  const size = `尺码${s}`
  const spuCode = `SPU${s}`
  const ids: Record<string, string> = {}

  await test.step('set up a category, a brand and two sale-property groups with items (API)', async () => {
    ids.category = await api.create('/basedata/product/category', { code: `C${s}`, name: `上衣${s}` })
    ids.brand = await api.create('/basedata/product/brand', { code: `B${s}`, name: `品牌${s}` })
    ids.colour = await api.create('/basedata/product/saleprop/group', { code: `CLR${s}`, name: colour })
    ids.size = await api.create('/basedata/product/saleprop/group', { code: `SZ${s}`, name: size })
    for (const [key, group, code, name] of [
      ['red', 'colour', 'R', '红色'],
      ['blue', 'colour', 'B', '蓝色'],
      ['s', 'size', 'S', 'S'],
      ['m', 'size', 'M', 'M'],
      ['l', 'size', 'L', 'L'],
    ])
      ids[key] = await api.create('/basedata/product/saleprop/item', { groupId: ids[group], code, name })
  })

  // The administrator's saved session (global setup): straight to the shell.
  await page.goto('/')
  const pane = await openSpuPage(page)
  const form = page.getByRole('dialog', { name: '新增商品SPU' })
  const matrix = form.locator('.product-sku-matrix')
  const colours = form.getByRole('group', { name: colour })
  const sizes = form.getByRole('group', { name: size })

  await test.step('fill in the SPU and choose both groups', async () => {
    await pane.getByRole('button', { name: '新增' }).click()
    await expect(form).toBeVisible()
    await form.getByLabel('货号', { exact: true }).fill(spuCode)
    await form.getByLabel('名称', { exact: true }).fill(`T恤${s}`)
    await pick(page, form, '类目', '选择商品类目', [`C${s} 上衣${s}`], true)
    await pick(page, form, '品牌', '选择商品品牌', [`B${s}`])
    await choose(page, form, '进项税率（%）', /^17%?$/)
    await choose(page, form, '销项税率（%）', /^17%?$/)
    // Without groups the matrix is the one line of a SPU without sale properties.
    await expect(matrix.locator('tr[data-state="active"]')).toHaveCount(1)
    await pick(page, form, '销售属性组', '选择销售属性组', [`CLR${s}`, `SZ${s}`])
    await expect(colours).toBeVisible()
    await expect(sizes).toBeVisible()
    // Choosing groups turns 多销售属性 on.
    await expect(form.getByRole('switch')).toHaveAttribute('aria-checked', 'true')
  })

  await test.step('tick 2 colours × 3 sizes: 6 lines, typed values stay with their combination', async () => {
    await expect(matrix.locator('tr[data-state]')).toHaveCount(0)
    await colours.getByText('红色', { exact: true }).click()
    await colours.getByText('蓝色', { exact: true }).click()
    for (const n of ['S', 'M', 'L']) await sizes.getByText(n, { exact: true }).click()
    await expect(matrix.locator('tr[data-state="active"]')).toHaveCount(6)
    await expect(matrix.getByRole('columnheader', { name: colour })).toBeVisible()

    await form.getByLabel('红色 M 外部编号', { exact: true }).fill(`EXT-${s}`)
    await sizes.getByText('M', { exact: true }).click()
    await expect(matrix.locator('tr[data-state="active"]')).toHaveCount(4)
    await expect(form.getByLabel('红色 M 外部编号', { exact: true })).toHaveCount(0)
    await sizes.getByText('M', { exact: true }).click()
    await expect(matrix.locator('tr[data-state="active"]')).toHaveCount(6)
    await expect(form.getByLabel('红色 M 外部编号', { exact: true })).toHaveValue(`EXT-${s}`)
  })

  await test.step('generate codes, fill prices, set one price by hand and save', async () => {
    await form.getByRole('button', { name: '生成编号' }).click()
    await expect(form.getByLabel('红色 S 编号', { exact: true })).toHaveValue(`${spuCode}RS`)
    await expect(form.getByLabel('蓝色 L SKU', { exact: true })).toHaveValue(`${spuCode}BL`)
    await form.getByLabel('批量采购价', { exact: true }).fill('30')
    await form.getByLabel('批量销售价', { exact: true }).fill('59.9')
    await form.getByLabel('批量零售价', { exact: true }).fill('69.9')
    await form.getByRole('button', { name: '填充价格' }).click()
    await expect(form.getByLabel('蓝色 S 零售价', { exact: true })).toHaveValue('69.90')
    await form.getByLabel('蓝色 L 销售价', { exact: true }).fill('65')
    await expect(matrix.getByText('共 6 个商品')).toBeVisible()
    await form.getByRole('button', { name: '确定' }).click()
    await expect(page.getByText('新增成功！')).toBeVisible()
    await expect(form).toBeHidden()
  })

  const saved = await api.spuByCode(spuCode)
  await test.step('the server holds the SPU and its 6 SKUs', async () => {
    expect(saved.multiSaleprop).toBe(true)
    expect(saved.salePropGroupIds).toEqual([ids.colour, ids.size])
    expect(saved.products).toHaveLength(6)
    expect(new Set(saved.products.map((p) => `${p.salePropItem1Id}/${p.salePropItem2Id}`)).size).toBe(6)
    const redM = saved.products.find((p) => p.salePropItem1Id === ids.red && p.salePropItem2Id === ids.m)
    expect(redM).toMatchObject({ code: `${spuCode}RM`, skuCode: `${spuCode}RM`, externalCode: `EXT-${s}`, name: `T恤${s} 红色 M`, purchasePrice: '30.00', salePrice: '59.90', retailPrice: '69.90' })
    const blueL = saved.products.find((p) => p.salePropItem1Id === ids.blue && p.salePropItem2Id === ids.l)
    expect(blueL).toMatchObject({ salePrice: '65.00' })
  })

  await test.step('modify: untick L, its 2 SKUs are 将删除, the other 4 keep their ids', async () => {
    await pane.getByRole('row').filter({ hasText: spuCode }).getByRole('button', { name: '修改' }).click()
    const modify = page.getByRole('dialog', { name: '修改商品SPU' })
    await expect(modify.locator('.product-sku-matrix tr[data-state="active"]')).toHaveCount(6)
    await expect(modify.locator('.product-sku-matrix').getByText('已有', { exact: true })).toHaveCount(6)
    // The groups of a saved SPU cannot change.
    await expect(modify.getByLabel('销售属性组', { exact: true })).toBeDisabled()
    await modify.getByRole('group', { name: size }).getByText('L', { exact: true }).click()
    await expect(modify.locator('.product-sku-matrix tr[data-state="unticked"]')).toHaveCount(2)
    await expect(modify.locator('.product-sku-matrix').getByText('将删除', { exact: true })).toHaveCount(2)
    await expect(modify.getByText('共 4 个商品，保存后将删除 2 个已有商品')).toBeVisible()
    await modify.getByLabel('红色 S 销售价', { exact: true }).fill('49.9')
    await modify.getByRole('button', { name: '确定' }).click()
    await expect(page.getByText('修改成功！')).toBeVisible()
    await expect(modify).toBeHidden()

    const after = await api.spuByCode(spuCode)
    expect(after.products).toHaveLength(4)
    expect(after.products.every((p) => p.salePropItem2Id !== ids.l)).toBe(true)
    const kept = saved.products.filter((p) => p.salePropItem2Id !== ids.l).map((p) => p.id).sort()
    expect(after.products.map((p) => p.id).sort()).toEqual(kept)
    expect(after.products.find((p) => p.salePropItem1Id === ids.red && p.salePropItem2Id === ids.s)?.salePrice).toBe('49.90')
  })
})

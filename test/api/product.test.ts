import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

interface Sku {
  id: string
  code: string
  name: string
  skuCode: string
  polyId: string
  salePropItem1Id: string | null
  salePropItem2Id: string | null
  salePropItem1Name?: string
  categoryId: string
  salePrice: string
  productType: number
}

interface Bundle {
  id: string
  salePrice: string
  retailPrice: string
  productBundles: { productId: string; productName: string; bundleNum: number; salePrice: string; retailPrice: string }[]
}

describe('products: SPU with SKUs, bundles', () => {
  let t: TestApp
  let token: string
  const ids: Record<string, string> = {}

  const post = async <T = string>(url: string, body: unknown) => t.call<T>('POST', url, { token, body })
  const created = async (url: string, body: unknown) => {
    const r = await post(url, body)
    expect(r.body.msg, JSON.stringify(body)).toBe('操作成功！')
    return r.body.data
  }
  const count = async (url: string, query: Record<string, string>) =>
    (await t.call<{ totalCount: number }>('GET', url, { token, query: { ...query, pageSize: 100 } })).body.data.totalCount

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    ids.root = await created('/basedata/product/category', { code: 'C01', name: '服装' })
    ids.child = await created('/basedata/product/category', { code: 'C0101', name: '上衣', parentId: ids.root })
    ids.shoes = await created('/basedata/product/category', { code: 'C02', name: '鞋履' })
    ids.brand = await created('/basedata/product/brand', { code: 'B01', name: '星云' })
    ids.color = await created('/basedata/product/saleprop/group', { code: 'COLOR', name: '颜色' })
    ids.size = await created('/basedata/product/saleprop/group', { code: 'SIZE', name: '尺码' })
    ids.stuff = await created('/basedata/product/saleprop/group', { code: 'STUFF', name: '材质' })
    for (const [key, group, code, name] of [
      ['red', 'color', 'R', '红色'],
      ['blue', 'color', 'B', '蓝色'],
      ['s', 'size', 'S', 'S'],
      ['m', 'size', 'M', 'M'],
      ['l', 'size', 'L', 'L'],
      ['cotton', 'stuff', 'CT', '棉'],
    ])
      ids[key] = await created('/basedata/product/saleprop/item', { groupId: ids[group], code, name })
  })
  afterAll(async () => t?.close())

  const spu = (code: string, extra: Record<string, unknown> = {}) => ({
    code,
    name: `T恤${code}`,
    categoryId: ids.child,
    brandId: ids.brand,
    taxRate: 17,
    saleTaxRate: 17,
    multiSaleprop: true,
    salePropGroupIds: [ids.color, ids.size],
    ...extra,
  })
  const matrix = (prefix: string) =>
    ['red', 'blue'].flatMap((c, i) =>
      ['s', 'm', 'l'].map((s, j) => ({
        code: `${prefix}${i}${j}`,
        skuCode: `SKU-${prefix}${i}${j}`,
        salePropItem1Id: ids[c],
        salePropItem2Id: ids[s],
        purchasePrice: '30.00',
        salePrice: '59.90',
        retailPrice: '69.90',
      })),
    )

  it('creates a SPU with two sale-property groups and its 2×3 SKU matrix in one call', async () => {
    const r = await post('/basedata/product/poly', { ...spu('P001'), products: matrix('P001') })
    expect(r.body.msg).toBe('操作成功！')
    const polyId = r.body.data
    ids.poly = polyId

    const got = await t.call<{ code: string; salePropGroupIds: string[]; products: Sku[] }>('GET', '/basedata/product/poly', { token, query: { id: polyId } })
    expect(got.body.data.salePropGroupIds).toEqual([ids.color, ids.size])
    const skus = got.body.data.products
    expect(skus).toHaveLength(6)
    expect(new Set(skus.map((s) => `${s.salePropItem1Id}/${s.salePropItem2Id}`)).size).toBe(6)
    const red = skus.find((s) => s.salePropItem1Id === ids.red && s.salePropItem2Id === ids.m)!
    expect(red).toMatchObject({ name: 'T恤P001 红色 M', polyId, categoryId: ids.child, salePrice: '59.90', productType: 1 })

    const listed = await t.call<Sku[]>('GET', '/basedata/product/poly/skus', { token, query: { polyId } })
    expect(listed.body.data.map((s) => s.code).sort()).toEqual(skus.map((s) => s.code).sort())
    expect(await count('/basedata/product/query', { code: 'P001' })).toBe(6)
  })

  it('refuses a third sale-property group with 销售属性数据有误！ and writes nothing', async () => {
    const before = await count('/basedata/product/query', {})
    const r = await post('/basedata/product/poly', {
      ...spu('P002', { salePropGroupIds: [ids.color, ids.size, ids.stuff] }),
      products: [{ code: 'P00201', skuCode: 'SKU-P00201', salePropItem1Id: ids.red, salePropItem2Id: ids.s }],
    })
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('销售属性数据有误！')
    expect(await count('/basedata/product/poly/query', { code: 'P002' })).toBe(0)
    expect(await count('/basedata/product/query', {})).toBe(before)
  })

  it('names the first failing line and rolls back the SPU and the lines before it', async () => {
    const before = await count('/basedata/product/query', {})
    const lines = matrix('P003')
    lines[2] = { ...lines[2], salePropItem2Id: ids.cotton } // an item of another group
    const r = await post('/basedata/product/poly', { ...spu('P003'), products: lines })
    expect(r.status).toBe(400)
    expect(r.body.msg).toBe('第3行商品新增失败，具体原因：销售属性数据有误！')

    const dup = matrix('P003')
    dup[1] = { ...dup[1], code: dup[0].code }
    const r2 = await post('/basedata/product/poly', { ...spu('P003'), products: dup })
    expect(r2.body.msg).toBe('第2行商品新增失败，具体原因：编号重复，请重新输入')

    const same = matrix('P003')
    same[4] = { ...same[4], salePropItem1Id: ids.red, salePropItem2Id: ids.s }
    const r3 = await post('/basedata/product/poly', { ...spu('P003'), products: same })
    expect(r3.body.msg).toBe('第5行商品新增失败，具体原因：销售属性组合重复！')

    expect(await count('/basedata/product/poly/query', { code: 'P003' })).toBe(0)
    expect(await count('/basedata/product/query', {})).toBe(before)
  })

  it('modifies a SPU with its lines: renames, keeps, removes and adds SKUs in one call', async () => {
    const got = await t.call<Record<string, unknown> & { products: Sku[] }>('GET', '/basedata/product/poly', { token, query: { id: ids.poly } })
    const keep = got.body.data.products.filter((s) => s.salePropItem1Id === ids.red)
    const body = {
      ...got.body.data,
      name: 'T恤新款',
      products: [
        ...keep.map((s) => ({ id: s.id, code: s.code, skuCode: s.skuCode, salePrice: '49.90' })),
        { code: 'P001X', skuCode: 'SKU-P001X', salePropItem1Id: ids.blue, salePropItem2Id: ids.s, salePrice: '39.90' },
      ],
    }
    const r = await t.call('PUT', '/basedata/product/poly', { token, body })
    expect(r.body.msg).toBe('操作成功！')
    const after = await t.call<{ products: Sku[] }>('GET', '/basedata/product/poly', { token, query: { id: ids.poly } })
    const skus = after.body.data.products
    expect(skus).toHaveLength(4)
    expect(skus.find((s) => s.code === keep[0].code)).toMatchObject({ id: keep[0].id, salePrice: '49.90' })
    expect(skus.every((s) => s.name.startsWith('T恤新款 '))).toBe(true)
    expect(skus.find((s) => s.code === 'P001X')?.name).toBe('T恤新款 蓝色 S')

    // A category with children is refused: goods are filed under the most specific one (leaf-only, 000 §6).
    const parent = await t.call('PUT', '/basedata/product/poly', { token, body: { id: ids.poly, name: 'T恤经典', categoryId: ids.root } })
    expect([parent.body.code, parent.body.msg]).toEqual([400, '类目只能选择末级'])
    // Without lines, a SKU still follows the SPU's name and category.
    await t.call('PUT', '/basedata/product/poly', { token, body: { id: ids.poly, name: 'T恤经典', categoryId: ids.shoes } })
    const again = await t.call<{ products: Sku[] }>('GET', '/basedata/product/poly', { token, query: { id: ids.poly } })
    expect(again.body.data.products.every((s) => s.name.startsWith('T恤经典 ') && s.categoryId === ids.shoes)).toBe(true)

    // A SKU's category belongs to the SPU.
    const sku = again.body.data.products[0]
    const moved = await t.call('PUT', '/basedata/product', { token, body: { id: sku.id, categoryId: ids.child } })
    expect(moved.body.msg).toBe('该商品属于商品SPU，类目和品牌请在商品SPU中修改！')
    // The groups of a SPU cannot change.
    const groups = await t.call('PUT', '/basedata/product/poly', { token, body: { id: ids.poly, salePropGroupIds: [ids.size] } })
    expect(groups.body.msg).toBe('销售属性组创建后不允许修改')
  })

  it('creates a SPU without sale properties as one SKU named like the SPU', async () => {
    const id = await created('/basedata/product/poly', {
      ...spu('P004', { multiSaleprop: false, salePropGroupIds: [] }),
      products: [{ code: 'P004', skuCode: 'SKU-P004', salePrice: '9.90' }],
    })
    const got = await t.call<{ products: Sku[] }>('GET', '/basedata/product/poly', { token, query: { id } })
    expect(got.body.data.products).toMatchObject([{ name: 'T恤P004', salePropItem1Id: null, salePropItem2Id: null }])
    const two = await post('/basedata/product/poly', {
      ...spu('P005', { multiSaleprop: false, salePropGroupIds: [] }),
      products: [
        { code: 'P00501', skuCode: 'SKU-P00501' },
        { code: 'P00502', skuCode: 'SKU-P00502' },
      ],
    })
    expect(two.body.msg).toBe('未启用多销售属性的商品SPU只能包含一个商品！')
  })

  it('wants groups when the SPU has sale properties, and only enabled groups and items', async () => {
    const noGroups = await post('/basedata/product/poly', { ...spu('P006', { salePropGroupIds: [] }), products: [{ code: 'P006', skuCode: 'SKU-P006' }] })
    expect(noGroups.body.msg).toBe('请选择销售属性组！')
    const noLines = await post('/basedata/product/poly', { ...spu('P006'), products: [] })
    expect(noLines.body.msg).toBe('商品不能为空！')

    await t.call('PATCH', '/basedata/product/saleprop/item/unable/batch', { token, body: [ids.l] })
    const disabledItem = await post('/basedata/product/poly', { ...spu('P006'), products: matrix('P006') })
    expect(disabledItem.body.msg).toBe('第3行商品新增失败，具体原因：销售属性数据有误！')
    await t.call('PATCH', '/basedata/product/saleprop/item/enable/batch', { token, body: [ids.l] })

    await t.call('PATCH', '/basedata/product/saleprop/group/unable/batch', { token, body: [ids.size] })
    const disabledGroup = await post('/basedata/product/poly', { ...spu('P006'), products: matrix('P006') })
    expect(disabledGroup.body.msg).toBe('销售属性数据有误！')
    await t.call('PATCH', '/basedata/product/saleprop/group/enable/batch', { token, body: [ids.size] })

    // An item a SKU uses cannot be deleted.
    const del = await t.call('DELETE', '/basedata/product/saleprop/item', { token, body: { id: ids.red } })
    expect(del.status).toBe(400)
    expect(await count('/basedata/product/poly/query', { code: 'P006' })).toBe(0)
  })

  describe('bundles', () => {
    const normal = (code: string, salePrice: string, retailPrice: string) => ({
      code,
      name: `单品${code}`,
      skuCode: `SKU-${code}`,
      categoryId: ids.child,
      brandId: ids.brand,
      productType: 1,
      taxRate: 17,
      saleTaxRate: 17,
      salePrice,
      retailPrice,
    })
    const bundle = (code: string, salePrice: string, retailPrice: string, lines: unknown[]) => ({
      ...normal(code, salePrice, retailPrice),
      name: `组合${code}`,
      productType: 2,
      productBundles: lines,
    })

    beforeAll(async () => {
      ids.a = await created('/basedata/product', normal('N001', '12.00', '15.00'))
      ids.b = await created('/basedata/product', normal('N002', '5.00', '6.00'))
    })

    it('saves a bundle whose sale and retail prices are Σ bundleNum × component line price', async () => {
      // 3 × 0.10 + 2 × 10.45 = 21.20 (0.1 × 3 is 0.30000000000000004 in binary floating point)
      const id = await created(
        '/basedata/product',
        bundle('K001', '21.20', '25.30', [
          { productId: ids.a, bundleNum: 3, salePrice: '0.10', retailPrice: '0.10' },
          { productId: ids.b, bundleNum: 2, salePrice: '10.45', retailPrice: '12.50' },
        ]),
      )
      ids.bundle = id
      const got = await t.call<Bundle>('GET', '/basedata/product', { token, query: { id } })
      expect(got.body.data).toMatchObject({ salePrice: '21.20', retailPrice: '25.30' })
      expect(got.body.data.productBundles).toEqual([
        expect.objectContaining({ productId: ids.a, productName: '单品N001', bundleNum: 3, salePrice: '0.10', retailPrice: '0.10' }),
        expect.objectContaining({ productId: ids.b, bundleNum: 2, salePrice: '10.45', retailPrice: '12.50' }),
      ])
    })

    it('refuses a sale price that does not add up (单品的销售价设置错误！) and a retail price likewise', async () => {
      const lines = [
        { productId: ids.a, bundleNum: 1, salePrice: '12.00', retailPrice: '15.00' },
        { productId: ids.b, bundleNum: 2, salePrice: '5.00', retailPrice: '6.00' },
      ]
      const sale = await post('/basedata/product', bundle('K002', '22.01', '27.00', lines))
      expect(sale.status).toBe(400)
      expect(sale.body.msg).toBe('单品的销售价设置错误！')
      const retail = await post('/basedata/product', bundle('K002', '22.00', '26.99', lines))
      expect(retail.body.msg).toBe('单品的零售价设置错误！')
      expect(await count('/basedata/product/query', { code: 'K002' })).toBe(0)
      await created('/basedata/product', bundle('K002', '22.00', '27.00', lines))
    })

    it('checks the rule again when only the bundle price changes, and takes only normal products as components', async () => {
      const price = await t.call('PUT', '/basedata/product', { token, body: { id: ids.bundle, salePrice: '21.30' } })
      expect(price.body.msg).toBe('单品的销售价设置错误！')
      const moved = await t.call('PUT', '/basedata/product', {
        token,
        body: { id: ids.bundle, salePrice: '21.30', productBundles: [{ productId: ids.a, bundleNum: 1, salePrice: '21.30', retailPrice: '25.30' }] },
      })
      expect(moved.body.msg).toBe('操作成功！')

      const nested = await post('/basedata/product', bundle('K003', '1.00', '1.00', [{ productId: ids.bundle, bundleNum: 1, salePrice: '1.00', retailPrice: '1.00' }]))
      expect(nested.body.msg).toBe('第1行单品：组合商品的单品只能是普通商品！')
      const empty = await post('/basedata/product', bundle('K003', '0', '0', []))
      expect(empty.body.msg).toBe('单品数据不能为空！')
      const zero = await post('/basedata/product', bundle('K003', '0', '0', [{ productId: ids.a, bundleNum: 0, salePrice: '1', retailPrice: '1' }]))
      expect(zero.body.msg).toBe('第1行单品：包含数量必须大于0')
    })

    it('keeps a component while a bundle holds it, and deletes a bundle with its lines', async () => {
      const r = await t.call('DELETE', '/basedata/product', { token, body: { id: ids.a } })
      expect(r.status).toBe(400)
      expect(r.body.msg).toBe('商品已被组合商品单品使用，不允许删除！')
      const del = await t.call('DELETE', '/basedata/product', { token, body: { id: ids.bundle } })
      expect(del.body.msg).toBe('操作成功！')
    })
  })
})

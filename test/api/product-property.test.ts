import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

interface Property {
  id: string
  code: string
  name: string
  columnType: number
  propertyType: number
  categoryIds: string[]
  items: { id: string; code: string; name: string }[]
}

describe('product properties: values, scope, change rules, modelor by category', () => {
  let t: TestApp
  let token: string
  const ids: Record<string, string> = {}

  const created = async (url: string, body: unknown) => {
    const r = await t.call<string>('POST', url, { token, body })
    expect(r.body.msg, JSON.stringify(body)).toBe('操作成功！')
    return r.body.data
  }
  const getProperty = async (id: string) => (await t.call<Property>('GET', '/basedata/product/property', { token, query: { id } })).body.data
  const modify = async (body: Record<string, unknown>) => t.call('PUT', '/basedata/product/property', { token, body })
  const productValues = async (id: string) =>
    (await t.call<{ properties: { id: string; text: unknown }[] }>('GET', '/basedata/product', { token, query: { id } })).body.data.properties

  beforeAll(async () => {
    t = await startTestApp()
    token = await t.login()
    ids.root = await created('/basedata/product/category', { code: 'C01', name: '服装' })
    ids.child = await created('/basedata/product/category', { code: 'C0101', name: '上衣', parentId: ids.root })
    ids.grandchild = await created('/basedata/product/category', { code: 'C010101', name: 'T恤', parentId: ids.child })
    ids.other = await created('/basedata/product/category', { code: 'C02', name: '食品' })
    ids.brand = await created('/basedata/product/brand', { code: 'B01', name: '星云' })
  })
  afterAll(async () => t?.close())

  const choice = (code: string, extra: Record<string, unknown>) => ({
    code,
    name: `属性${code}`,
    isRequired: false,
    columnType: 1,
    propertyType: 1,
    items: [
      { code: '01', name: '甲' },
      { code: '02', name: '乙' },
      { code: '03', name: '丙' },
    ],
    ...extra,
  })
  const product = (code: string, categoryId: string, properties: unknown[]) => ({
    code,
    name: `商品${code}`,
    skuCode: `SKU-${code}`,
    categoryId,
    brandId: ids.brand,
    taxRate: 17,
    saleTaxRate: 17,
    properties,
  })

  it('creates properties with their values and answers them', async () => {
    ids.common = await created('/basedata/product/property', choice('P1', { columnType: 1, propertyType: 1 }))
    // Appointed to the parent and the child: stored as the parent only (it covers its subtree).
    ids.appoint = await created('/basedata/product/property', choice('P2', { columnType: 2, propertyType: 2, categoryIds: [ids.child, ids.root] }))
    ids.otherCat = await created('/basedata/product/property', choice('P3', { columnType: 2, propertyType: 2, categoryIds: [ids.other] }))
    ids.none = await created('/basedata/product/property', choice('P4', { columnType: 2, propertyType: 3 }))
    ids.custom = await created('/basedata/product/property', { code: 'P5', name: '产地', isRequired: false, columnType: 3, columnDataType: 3, propertyType: 1 })

    const appoint = await getProperty(ids.appoint)
    expect(appoint.categoryIds).toEqual([ids.root])
    expect(appoint.items.map((i) => i.name)).toEqual(['甲', '乙', '丙'])
    expect((await getProperty(ids.custom)).items).toEqual([])

    const noItems = await t.call('POST', '/basedata/product/property', { token, body: choice('P6', { items: [] }) })
    expect(noItems.body.msg).toBe('请添加属性值！')
    const noCategory = await t.call('POST', '/basedata/product/property', { token, body: choice('P6', { propertyType: 2, categoryIds: [] }) })
    expect(noCategory.body.msg).toBe('请选择商品类目！')
    const noDataType = await t.call('POST', '/basedata/product/property', { token, body: { code: 'P6', name: '重量', columnType: 3, propertyType: 1 } })
    expect(noDataType.body.msg).toBe('数据类型不能为空！')
    const badItem = await t.call('POST', '/basedata/product/property', { token, body: choice('P6', { items: [{ code: '01', name: '甲' }, { code: '01', name: '乙' }] }) })
    expect(badItem.body.msg).toBe('第2行属性值新增失败，具体原因：编号重复，请重新输入')
    expect((await t.call<{ totalCount: number }>('GET', '/basedata/product/property/query', { token, query: { code: 'P6' } })).body.data.totalCount).toBe(0)
  })

  it('answers the properties of a category: common ones and those appointed to it or an ancestor, with values', async () => {
    const r = await t.call<Property[]>('GET', '/basedata/product/property/modelor/category', { token, query: { categoryId: ids.grandchild } })
    expect(r.body.code).toBe(200)
    expect(r.body.data.map((p) => p.code)).toEqual(['P1', 'P2', 'P5'])
    expect(r.body.data.find((p) => p.code === 'P2')!.items.map((i) => i.code)).toEqual(['01', '02', '03'])

    const other = await t.call<Property[]>('GET', '/basedata/product/property/modelor/category', { token, query: { categoryId: ids.other } })
    expect(other.body.data.map((p) => p.code)).toEqual(['P1', 'P3', 'P5'])

    // A disabled property is not offered.
    await t.call('PATCH', '/basedata/product/property/unable/batch', { token, body: [ids.custom] })
    const without = await t.call<Property[]>('GET', '/basedata/product/property/modelor/category', { token, query: { categoryId: ids.child } })
    expect(without.body.data.map((p) => p.code)).toEqual(['P1', 'P2'])
    await t.call('PATCH', '/basedata/product/property/enable/batch', { token, body: [ids.custom] })

    const missing = await t.call('GET', '/basedata/product/property/modelor/category', { token })
    expect(missing.status).toBe(400)
    expect(missing.body.msg).toBe('请选择商品类目！')
  })

  it('stores product values checked against the property', async () => {
    const common = await getProperty(ids.common)
    const appoint = await getProperty(ids.appoint)
    ids.p1 = await created(
      '/basedata/product',
      product('G001', ids.grandchild, [
        { id: ids.common, text: [common.items[1].id, common.items[0].id] },
        { id: ids.appoint, text: appoint.items[2].id },
        { id: ids.custom, text: '杭州' },
      ]),
    )
    const values = await productValues(ids.p1)
    expect(values.find((v) => v.id === ids.common)?.text).toEqual(expect.arrayContaining([common.items[0].id, common.items[1].id]))
    expect(values.find((v) => v.id === ids.custom)?.text).toBe('杭州')

    const notHere = await t.call('POST', '/basedata/product', { token, body: product('G002', ids.other, [{ id: ids.appoint, text: appoint.items[0].id }]) })
    expect(notHere.body.msg).toBe('商品属性【属性P2】不适用于该商品类目！')
    const wrongItem = await t.call('POST', '/basedata/product', { token, body: product('G002', ids.other, [{ id: ids.common, text: appoint.items[0].id }]) })
    expect(wrongItem.body.msg).toBe('商品属性值不存在！')
  })

  it('applies the change rules of a property', async () => {
    const custom = await getProperty(ids.custom)
    expect((await modify({ ...custom, columnType: 2 })).body.msg).toBe('该属性的字段类型为“手动录入”，不允许修改！')
    expect((await modify({ ...custom, columnDataType: 1 })).body.msg).toBe('数据类型不允许修改！')
    expect((await modify({ ...custom, propertyType: 2, categoryIds: [ids.root] })).body.msg).toBe('该属性不允许修改属性类别！')
    const common = await getProperty(ids.common)
    expect((await modify({ ...common, columnType: 3, columnDataType: 3 })).body.msg).toBe('该属性不允许将字段类型修改为“手动录入”！')
    expect((await modify({ ...common, propertyType: 3 })).body.msg).toBe('该属性的属性类别为“通用属性”，不允许修改为“无”')
    const none = await getProperty(ids.none)
    expect((await modify({ ...none, propertyType: 1 })).body.msg).toBe('操作成功！')
  })

  it('collapses values when MULTIPLE becomes SINGLE and rewrites them when the scope changes', async () => {
    const common = await getProperty(ids.common)
    expect((await modify({ ...common, columnType: 2 })).body.msg).toBe('操作成功！')
    const single = (await productValues(ids.p1)).find((v) => v.id === ids.common)
    expect(single?.text).toBe(common.items[0].id)

    // COMMON → APPOINT to another category: the product of 服装 loses its value.
    expect((await modify({ ...(await getProperty(ids.common)), propertyType: 2, categoryIds: [ids.other] })).body.msg).toBe('操作成功！')
    expect((await productValues(ids.p1)).find((v) => v.id === ids.common)).toBeUndefined()

    // Back to COMMON as a required property: every product gets its first value.
    expect((await modify({ ...(await getProperty(ids.common)), propertyType: 1, isRequired: true })).body.msg).toBe('操作成功！')
    expect((await productValues(ids.p1)).find((v) => v.id === ids.common)?.text).toBe(common.items[0].id)

    // A required property must be filled from then on.
    const missing = await t.call('POST', '/basedata/product', { token, body: product('G003', ids.other, []) })
    expect(missing.body.msg).toBe('请选择属性P1')
  })

  it('keeps a value while a product uses it and a property while products use it', async () => {
    const appoint = await getProperty(ids.appoint)
    const r = await modify({ ...appoint, items: appoint.items.filter((i) => i.code !== '03') })
    expect(r.body.msg).toBe('属性值【丙】已被商品使用，不允许删除！')
    const renamed = await modify({ ...appoint, items: appoint.items.map((i) => ({ ...i, name: `${i.name}新` })) })
    expect(renamed.body.msg).toBe('操作成功！')
    expect((await getProperty(ids.appoint)).items.map((i) => i.name)).toEqual(['甲新', '乙新', '丙新'])
    const del = await t.call('DELETE', '/basedata/product/property', { token, body: { id: ids.appoint } })
    expect(del.body.msg).toBe('该属性已被商品使用，不允许删除！')
    const free = await t.call('DELETE', '/basedata/product/property', { token, body: { id: ids.otherCat } })
    expect(free.body.msg).toBe('操作成功！')
  })
})

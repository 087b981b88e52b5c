import { confirmBox, expect, fieldErrors, openScreen, rowOf, searchPicker, test, toast, uniqueSuffix, expectPicked } from './helpers.js'

/**
 * A business object that exists only as one JSON file (test/fixtures/entities/shelf-zone.json, loaded
 * through ENTITY_DIRS by the global setup), with no TypeScript and no menu: the generic screen
 * /entity/shelfZone gives its list, search form, add form with the warehouse picker, detail and batch
 * disable, and the server its `/selector/shelf-zone` picker.
 */

test('shelf zone from a JSON file only: add with a warehouse, list, detail, search, disable, picker', async ({ page, api }) => {
  test.setTimeout(60_000)
  const s = uniqueSuffix()
  const warehouses = [
    { code: `W${s}1`, name: `一号仓${s}` },
    { code: `W${s}2`, name: `二号仓${s}` },
  ]
  const ids: string[] = []
  for (const w of warehouses) ids.push(await api.post<string>('/basedata/storecenter', w))
  // A second zone in the other warehouse, so the warehouse search has something to leave out.
  const other = { code: `Z${s}9`, name: `B区${s}` }
  await api.post('/basedata/shelf-zone', { ...other, scId: ids[1] })
  const zone = { code: `Z${s}1`, name: `A区${s}` }

  const pane = await openScreen(page, '/entity/shelfZone')
  await expect(pane.locator('.ant-table-thead')).toContainText('仓库')
  for (const title of ['序号', '编号', '名称', '仓库', '容量（立方米）', '层数', '状态', '创建时间', '操作'])
    await expect(pane.locator('.ant-table-thead th').filter({ hasText: title }).first()).toBeVisible()
  await expect(pane.getByRole('button', { name: '导出', exact: true })).toBeVisible()

  await test.step('add a zone, picking its warehouse in the sc picker', async () => {
    await pane.getByRole('button', { name: '新增', exact: true }).click()
    const form = page.getByRole('dialog', { name: '新增货架区域' })
    await expect(form).toBeVisible()
    // The file lists 状态 in the add form too, switched on by its default.
    await expect(form.getByRole('switch', { name: '状态' })).toBeChecked()
    await form.getByRole('textbox', { name: '编号', exact: true }).fill(zone.code)
    await form.getByRole('textbox', { name: '名称', exact: true }).fill(zone.name)

    const warehouse = form.getByRole('textbox', { name: '仓库', exact: true })
    await warehouse.click()
    const picker = page.getByRole('dialog', { name: '选择仓库' })
    await searchPicker(picker, warehouses[0].code)
    await expect(rowOf(picker, warehouses[0].code)).toBeVisible()
    await rowOf(picker, warehouses[0].code).dblclick()
    await expect(picker).toBeHidden()
    await expectPicked(warehouse, warehouses[0].code, warehouses[0].name)

    await form.getByRole('spinbutton', { name: '容量（立方米）', exact: true }).fill('12.5')
    const levels = form.getByRole('spinbutton', { name: '层数', exact: true })
    await levels.fill('0')
    await expect(fieldErrors(form).filter({ hasText: '层数必须大于0' })).toBeVisible()
    await levels.fill('3')
    await expect(fieldErrors(form)).toHaveCount(0)

    await form.getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '新增成功！')).toBeVisible()
    await expect(form).toBeHidden()
    const row = rowOf(pane, zone.code)
    for (const text of [zone.name, warehouses[0].name, '12.5', '3', '启用']) await expect(row).toContainText(text)
  })

  await test.step('the detail dialog reads the saved zone as text', async () => {
    await rowOf(pane, zone.code).getByRole('button', { name: '详情', exact: true }).click()
    const detail = page.getByRole('dialog', { name: '货架区域详情' })
    for (const text of [zone.code, zone.name, warehouses[0].code, '12.5', '启用']) await expect(detail).toContainText(text)
    await expect(detail.getByRole('button', { name: '确定', exact: true })).toHaveCount(0)
    await detail.getByRole('button', { name: '取消', exact: true }).click()
    await expect(detail).toBeHidden()
  })

  const search = pane.locator('.entity-query-form')
  await test.step('the search form finds the zones of one warehouse through its picker', async () => {
    await search.getByLabel('编号', { exact: true }).fill(`Z${s}`)
    await search.getByRole('button', { name: '查询', exact: true }).click()
    await expect(pane.locator('.ant-table-row')).toHaveCount(2)
    await search.getByLabel('仓库', { exact: true }).click()
    const picker = page.getByRole('dialog', { name: '选择仓库' })
    await searchPicker(picker, warehouses[0].code)
    await rowOf(picker, warehouses[0].code).dblclick()
    await expect(picker).toBeHidden()
    await search.getByRole('button', { name: '查询', exact: true }).click()
    await expect(pane.locator('.ant-table-row')).toHaveCount(1)
    await expect(rowOf(pane, zone.code)).toBeVisible()
  })

  await test.step('停用 through the batch button', async () => {
    await rowOf(pane, zone.code).getByRole('checkbox').check()
    await pane.getByRole('button', { name: '停用', exact: true }).click()
    const confirm = confirmBox(page, '确定停用选中的1条数据？')
    await confirm.getByRole('button', { name: '确定', exact: true }).click()
    await expect(toast(page, '停用成功！')).toBeVisible()
    await expect(rowOf(pane, zone.code).locator('.ant-tag')).toHaveText('停用')
    await expect(rowOf(pane, zone.code).getByRole('checkbox')).not.toBeChecked()
  })

  await test.step('its picker kind shelf-zone answers enabled zones by default and all on request', async () => {
    // No form refers to a shelf zone, so the picker is reached through the selector API the picker dialog calls.
    type Page = { totalCount: number; datas: { id: string; code: string; scName?: string; available: boolean }[] }
    const enabled = await api.get<Page>('/selector/shelf-zone', { code: `Z${s}` })
    expect(enabled.datas.map((r) => r.code)).toEqual([other.code])
    const all = await api.get<Page>('/selector/shelf-zone', { code: `Z${s}`, available: 'all' })
    expect(all.datas.map((r) => r.code).sort()).toEqual([zone.code, other.code].sort())
    const row = all.datas.find((r) => r.code === zone.code)!
    expect(row).toMatchObject({ available: false, scName: warehouses[0].name })
    const loaded = await api.post<{ id: string; code: string }[]>('/selector/shelf-zone/load', [row.id])
    expect(loaded.map((r) => r.code)).toEqual([zone.code])
  })
})

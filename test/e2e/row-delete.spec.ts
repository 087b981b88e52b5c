import { expect, openScreen, rowOf, test, toast, uniqueSuffix } from './helpers.js'

/**
 * A row's 删除 asks in a bubble before it deletes. The bubble is made at the first click, not with every row
 * (components/ConfirmLink.tsx): it must ask all the same, keep the focus on the link, and 取消 must keep the row.
 */
test('a row’s 删除 asks first: 取消 keeps the row, 确定 deletes it', async ({ page, api }) => {
  const s = uniqueSuffix()
  await api.post('/basedata/product/brand', { code: `DEL${s}`, name: `待删品牌${s}` })
  const list = await openScreen(page, '/product/brand')
  await list.getByRole('textbox', { name: '编号', exact: true }).fill(`DEL${s}`)
  await list.getByRole('button', { name: '查询' }).click()
  const row = rowOf(list, `待删品牌${s}`)
  const remove = row.getByRole('button', { name: '删除' })
  const bubble = page.locator('.ant-popconfirm').filter({ hasText: '确定删除该数据？' })

  await remove.click()
  await expect(bubble).toBeVisible()
  await expect(remove).toBeFocused()
  await bubble.getByRole('button', { name: '取消' }).click()
  await expect(bubble).toBeHidden()
  await expect(row).toHaveCount(1)

  await remove.click()
  await expect(bubble).toBeVisible()
  await bubble.getByRole('button', { name: '确定' }).click()
  await expect(toast(page, '删除成功！')).toBeVisible()
  await expect(row).toHaveCount(0)
})

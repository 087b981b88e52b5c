import { expect, expectCells, test } from './helpers.js'
import { docMasterData, openAdd, pick, total } from './document-helpers.js'

/**
 * The quick-add box as a barcode scanner uses it: the code typed and Enter, three times. One line,
 * quantity 3, and the box keeps the focus and is empty for the next scan. The SKU code is a code too;
 * the line shows its amount.
 */
test('a scanned code added three times is one line of 3', async ({ page, api }) => {
  const f = await docMasterData(api)
  const { pane } = await openAdd(page, '/purchase/order')
  await pick(page, pane.getByRole('textbox', { name: '仓库', exact: true }), f.sc.code)
  const box = pane.getByRole('combobox', { name: '快速添加商品' })
  const rows = pane.locator('.document-lines .ant-table-row')
  await box.click()
  for (const n of [1, 2, 3]) {
    // Typed without clicking again: the box kept the focus after the previous Enter.
    await page.keyboard.type(n === 2 ? `K${f.s}` : f.product.code)
    await box.press('Enter')
    await expect(pane.getByRole('spinbutton', { name: '第1行采购数量' })).toHaveValue(String(n))
    await expect(box).toHaveValue('')
    await expect(box).toBeFocused()
  }
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText(f.product.name)
  await expect(total(pane, 'num')).toHaveText('3')
  // The line shows its amount, 3 × the purchase price 1.00.
  await expectCells(rows.first(), { 金额: '3.00' })
})

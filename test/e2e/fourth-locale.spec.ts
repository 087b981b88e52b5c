import { expect, fieldErrors, openScreen, rowOf, switchLanguage, test, toast, uniqueSuffix } from './helpers.js'

/**
 * Issue 29 point 3: a language is one catalogue file plus one row. The fourth one lives only in
 * test/fixtures/locale-fr-FR (its row `locale.json`, its `catalogue.json`), added to the server and to
 * the client build through LOCALE_DIRS (global-setup.ts). Words its catalogue lacks show in Simplified,
 * labels of schemas/ fall back to English.
 */
test('Français from a fixture folder: the shell, the brand list and a server message', async ({ page, api }) => {
  test.setTimeout(120_000)
  const code = `FR${uniqueSuffix()}`
  await api.post('/basedata/product/brand', { code, name: `法语品牌${code}`, available: true })
  await page.goto('/')
  await switchLanguage(page, 'Français')

  // The shell: the language menu (by its own name), the menu search and the workplace tab.
  await expect(page.getByRole('combobox', { name: 'Rechercher un menu' })).toBeVisible()
  await expect(page.locator('.shell-tab-label').filter({ hasText: 'Bureau' })).toBeVisible()
  await page.getByRole('button', { name: 'Langue', exact: true }).click()
  await expect(page.getByRole('menuitem', { name: 'Français' })).toBeVisible()
  await page.keyboard.press('Escape')

  // A list: search form, buttons, columns, pager from the catalogue; the status from enums.json in English.
  const pane = await openScreen(page, '/product/brand')
  const head = pane.locator('.ant-table-thead')
  for (const title of ['Code', 'Nom', 'Statut', 'Actions']) await expect(head).toContainText(title)
  await expect(pane.getByRole('button', { name: 'Réinitialiser', exact: true })).toBeVisible()
  await pane.getByPlaceholder('Veuillez saisir Code', { exact: true }).fill(code)
  await pane.getByRole('button', { name: 'Rechercher', exact: true }).click()
  await expect(pane.locator('.ant-table-row')).toHaveCount(1)
  await expect(rowOf(pane, code)).toContainText('Enabled')
  await expect(pane.locator('.ant-pagination')).toContainText('1 lignes au total')
  await expect(head).not.toContainText('名称')

  // The browser's own check, then the server's answer, both in French.
  await pane.getByRole('button', { name: 'Ajouter', exact: true }).click()
  const form = page.getByRole('dialog')
  await form.getByRole('button', { name: 'Valider', exact: true }).click()
  await expect(fieldErrors(form).filter({ hasText: 'Veuillez saisir Code' })).toBeVisible()
  await form.getByRole('textbox', { name: 'Code', exact: true }).fill(code)
  await form.getByRole('textbox', { name: 'Nom', exact: true }).fill('Marque en double')
  await form.getByRole('button', { name: 'Valider', exact: true }).click()
  await expect(toast(page, 'Code existe déjà ; saisissez-en un autre')).toBeVisible()
  await form.getByRole('button', { name: 'Annuler', exact: true }).click()
  await expect(rowOf(pane, 'Marque en double')).toHaveCount(0)
})

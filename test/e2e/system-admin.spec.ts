import type { Locator, Page } from '@playwright/test'
import { expect, openCatalog, openMenu, rowOf, sideMenu, signIn, test, topMenu, uniqueSuffix } from './helpers.js'

/**
 * System administration end to end on the real server (fresh database): an administrator creates a
 * role, grants it 供应商信息 through the role 授权 tree, creates a user and gives it the role through
 * the user 授权 dialog; the user then signs in and sees only 基础信息管理 → 供应商信息.
 */

interface NewRole {
  code: string
  name: string
}
interface NewUser {
  code: string
  name: string
  username: string
  password: string
}

/** 新增 on 角色管理, as an admin does. */
async function createRole(page: Page, role: NewRole): Promise<Locator> {
  const roles = await openMenu(page, '系统管理', '角色管理', '/system/role')
  await roles.getByRole('button', { name: '新增' }).click()
  const form = page.getByRole('dialog', { name: '新增角色' })
  await form.getByLabel('编号', { exact: true }).fill(role.code)
  await form.getByLabel('名称', { exact: true }).fill(role.name)
  await form.getByRole('button', { name: '确定' }).click()
  await expect(page.getByText('新增成功！').last()).toBeVisible()
  await expect(rowOf(roles, role.code)).toBeVisible()
  return roles
}

/** 新增 on 用户管理, as an admin does; with a role, chosen in the form's 角色 picker. */
async function createUser(page: Page, user: NewUser, role?: NewRole): Promise<Locator> {
  const users = await openMenu(page, '系统管理', '用户管理', '/system/user')
  await users.getByRole('button', { name: '新增' }).click()
  const form = page.getByRole('dialog', { name: '新增用户' })
  await form.getByLabel('编号', { exact: true }).fill(user.code)
  await form.getByLabel('姓名', { exact: true }).fill(user.name)
  await form.getByLabel('用户名', { exact: true }).fill(user.username)
  await form.getByLabel('密码', { exact: true }).fill(user.password)
  if (role) {
    await form.getByRole('textbox', { name: '角色', exact: true }).click()
    const picker = page.getByRole('dialog', { name: '选择角色' })
    await picker.getByLabel('编号', { exact: true }).fill(role.code)
    await picker.getByRole('button', { name: '查询', exact: true }).click()
    await expect(picker.locator('.ant-table-row')).toHaveCount(1)
    await rowOf(picker, role.code).getByRole('checkbox').check()
    await picker.getByRole('button', { name: '确定', exact: true }).click()
    await expect(picker).toBeHidden()
    await expect(form.getByRole('textbox', { name: '角色', exact: true })).toHaveValue(role.code)
  }
  await form.getByRole('button', { name: '确定' }).click()
  await expect(page.getByText('新增成功！').last()).toBeVisible()
  await expect(rowOf(users, user.username)).toBeVisible()
  return users
}

/** The user's 授权 dialog: tick the role, save. */
async function giveRole(page: Page, users: Locator, user: NewUser, role: NewRole): Promise<void> {
  await rowOf(users, user.username).getByRole('button', { name: '授权' }).click()
  const dialog = page.getByRole('dialog', { name: `用户授权 - ${user.name}` })
  const roleRow = dialog.getByRole('row').filter({ hasText: role.code })
  await expect(roleRow.getByRole('checkbox')).not.toBeChecked()
  await roleRow.getByRole('checkbox').check()
  await expect(dialog.getByText('已选 1 个角色')).toBeVisible()
  await dialog.getByRole('button', { name: '保存' }).click()
  await expect(page.getByText('授权成功！').last()).toBeVisible()
  await expect(dialog).toBeHidden()
}

test('a role granted 供应商信息 through 授权 gives its user only that menu', async ({ page, browser }) => {
  test.setTimeout(120_000)
  const suffix = uniqueSuffix()
  const role = { code: `R${suffix}`, name: `供应商查询${suffix}` }
  const user = { code: `U${suffix}`, name: `采购员${suffix}`, username: `buyer${suffix.toLowerCase()}`, password: 'Buyer123456' }

  // The administrator's saved session (global setup); the user signs in through the login page below.
  let roles!: Locator
  let users!: Locator

  await test.step('create the role', async () => {
    roles = await createRole(page, role)
  })

  await test.step('the administrator role shows everything and cannot be saved', async () => {
    const adminRole = roles.getByRole('row').filter({ has: page.getByRole('cell', { name: '001', exact: true }) })
    await adminRole.getByRole('button', { name: '授权' }).click()
    const dialog = page.getByRole('dialog', { name: /角色授权 - 系统管理员/ })
    await expect(dialog.getByText('该角色拥有全部权限')).toBeVisible()
    await expect(dialog.getByRole('button', { name: '保存' })).toBeDisabled()
    await dialog.getByRole('button', { name: '取消' }).click()
    await expect(dialog).toBeHidden()
  })

  await test.step('grant 供应商信息 in the role 授权 tree', async () => {
    await rowOf(roles, role.code).getByRole('button', { name: '授权' }).click()
    const dialog = page.getByRole('dialog', { name: `角色授权 - ${role.name}` })
    await expect(dialog.getByRole('tree')).toBeVisible()
    await expect(dialog.getByText('已授权 0 项')).toBeVisible()
    // The tree is long: find the menu with the dialog's 定位 box, as a user would.
    const locate = dialog.getByLabel('定位菜单')
    await locate.fill('供应商信息')
    await locate.press('Enter')
    // Ticking a button grants it with its menu and catalog (what it needs to be reachable), not its
    // siblings; the count is of what the role may open and do (the menu and the button), not the catalog.
    const add = dialog.getByRole('checkbox', { name: 'Select 新增供应商', exact: true })
    await add.click()
    await expect(add).toHaveAttribute('aria-checked', 'true')
    await expect(dialog.getByText('已授权 2 项')).toBeVisible()
    const supplier = dialog.getByRole('checkbox', { name: 'Select 供应商信息', exact: true })
    await expect(supplier).toHaveAttribute('aria-checked', 'mixed')
    await expect(dialog.getByRole('checkbox', { name: 'Select 修改供应商', exact: true })).toHaveAttribute('aria-checked', 'false')
    await dialog.getByRole('button', { name: '保存' }).click()
    await expect(page.getByText('授权成功！').last()).toBeVisible()
    await expect(dialog).toBeHidden()
  })

  await test.step('the grant is there when the tree opens again', async () => {
    await rowOf(roles, role.code).getByRole('button', { name: '授权' }).click()
    const dialog = page.getByRole('dialog', { name: `角色授权 - ${role.name}` })
    await expect(dialog.getByText('已授权 2 项')).toBeVisible()
    await dialog.getByLabel('定位菜单').fill('供应商信息')
    await dialog.getByLabel('定位菜单').press('Enter')
    await expect(dialog.getByRole('checkbox', { name: 'Select 供应商信息', exact: true })).toHaveAttribute('aria-checked', 'mixed')
    await expect(dialog.getByRole('checkbox', { name: 'Select 新增供应商', exact: true })).toHaveAttribute('aria-checked', 'true')
    await dialog.getByRole('button', { name: '取消' }).click()
    await expect(dialog).toBeHidden()
  })

  await test.step('create the user', async () => {
    users = await createUser(page, user)
  })

  await test.step('a user that is not locked is not unlocked', async () => {
    await rowOf(users, user.username).getByRole('button', { name: '解锁' }).click()
    await expect(page.getByText('该用户未锁定')).toBeVisible()
  })

  await test.step('give the user the role through 授权', async () => {
    await giveRole(page, users, user, role)

    // Opening it again shows the saved choice.
    await rowOf(users, user.username).getByRole('button', { name: '授权' }).click()
    const again = page.getByRole('dialog', { name: `用户授权 - ${user.name}` })
    await expect(again.getByRole('row').filter({ hasText: role.code }).getByRole('checkbox')).toBeChecked()
    await again.getByRole('button', { name: '取消' }).click()
    await expect(again).toBeHidden()
  })

  await test.step('the user sees only 基础信息管理 → 供应商信息', async () => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    try {
      const userPage = await context.newPage()
      await signIn(userPage, user.username, user.password)
      await expect(topMenu(userPage).getByRole('menuitem')).toHaveText(['基础信息管理'])
      await expect(sideMenu(userPage).getByRole('menuitem')).toHaveText(['供应商信息'])
      const suppliers = await openMenu(userPage, undefined, '供应商信息', '/base-data/supplier')
      // The list answers (the query permission came with the menu) and the granted buttons show.
      await expect(suppliers.getByRole('button', { name: '新增' })).toBeVisible()
      await expect(suppliers.locator('.ant-table')).toBeVisible()
      await expect(suppliers.getByText('抱歉，您无权访问此页面')).toHaveCount(0)
    } finally {
      await context.close()
    }
  })
})

test('a role built in the UI by ticking catalogs signs its user in to their pages', async ({ page, browser }) => {
  test.setTimeout(180_000)
  const suffix = uniqueSuffix()
  const role = { code: `C${suffix}`, name: `基础资料${suffix}` }
  const user = { code: `V${suffix}`, name: `文员${suffix}`, username: `clerk${suffix.toLowerCase()}`, password: 'Clerk123456' }
  const roles = await createRole(page, role)

  await test.step('tick the catalogs 基础信息管理 and 商品中心 in the 授权 tree', async () => {
    await rowOf(roles, role.code).getByRole('button', { name: '授权' }).click()
    const dialog = page.getByRole('dialog', { name: `角色授权 - ${role.name}` })
    await expect(dialog.getByText('已授权 0 项')).toBeVisible()
    // Folded, the tree shows the catalogs only: an admin ticks the ones the clerk works in.
    await dialog.getByRole('button', { name: '折叠' }).click()
    const counted = async () => Number((await dialog.getByText(/已授权 \d+ 项/).textContent())?.match(/\d+/)?.[0])
    const catalog = dialog.getByRole('checkbox', { name: 'Select 基础信息管理', exact: true })
    await catalog.click()
    await expect(catalog).toHaveAttribute('aria-checked', 'true')
    // The count is of the pages and buttons granted (8 menus and their buttons), not of catalogs ticked.
    await expect.poll(counted).toBeGreaterThan(10)
    const one = await counted()
    const products = dialog.getByRole('checkbox', { name: 'Select 商品中心', exact: true })
    await products.click()
    await expect(products).toHaveAttribute('aria-checked', 'true')
    await expect.poll(counted).toBeGreaterThan(one + 5)
    await dialog.getByLabel('定位菜单').fill('新增供应商')
    await dialog.getByLabel('定位菜单').press('Enter')
    await expect(dialog.getByRole('checkbox', { name: 'Select 新增供应商', exact: true })).toHaveAttribute('aria-checked', 'true')
    await dialog.getByRole('button', { name: '保存' }).click()
    await expect(page.getByText('授权成功！').last()).toBeVisible()
  })

  await test.step('make the user with the role chosen in 新增用户; 授权 shows it held', async () => {
    const users = await createUser(page, user, role)
    await rowOf(users, user.username).getByRole('button', { name: '授权' }).click()
    const dialog = page.getByRole('dialog', { name: `用户授权 - ${user.name}` })
    await expect(dialog.getByRole('row').filter({ hasText: role.code }).getByRole('checkbox')).toBeChecked()
    await expect(dialog.getByText('已选 1 个角色')).toBeVisible()
    await dialog.getByRole('button', { name: '取消' }).click()
    await expect(dialog).toBeHidden()
  })

  await test.step('the clerk signs in to the catalogs with their pages and buttons', async () => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    try {
      const userPage = await context.newPage()
      await signIn(userPage, user.username, user.password)
      await expect(topMenu(userPage).getByRole('menuitem')).toHaveText(['基础信息管理', '商品中心'])
      await openCatalog(userPage, '基础信息管理')
      await expect(sideMenu(userPage).getByRole('menuitem', { name: '供应商信息' })).toBeVisible()
      await expect(sideMenu(userPage).getByRole('menuitem', { name: '客户信息' })).toBeVisible()
      const suppliers = await openMenu(userPage, undefined, '供应商信息', '/base-data/supplier')
      await expect(suppliers.getByRole('button', { name: '新增' })).toBeVisible()
      await expect(suppliers.getByRole('button', { name: '导入', exact: true })).toBeVisible()
      const brands = await openMenu(userPage, '商品中心', '商品品牌', '/product/brand')
      await expect(brands.getByRole('button', { name: '新增' })).toBeVisible()
      await expect(brands.getByText('抱歉，您无权访问此页面')).toHaveCount(0)
    } finally {
      await context.close()
    }
  })
})

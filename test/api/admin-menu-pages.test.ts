import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import type { MenuNode } from '../../src/shared/contracts/menu-node.js'
import { hasOperation, operationKeys } from '../../src/shared/metadata/operation-keys.js'
import { listRoutes } from '../../src/server/engine/list-routes.js'

const pages = (nodes: MenuNode[]): MenuNode[] =>
  nodes.flatMap((n) => [...(n.display === 1 && n.path && !n.hidden && n.permission ? [n] : []), ...pages(n.children ?? [])])

/**
 * Issue 27 "The admin is refused a page": every page the menu tree leads to opens for the admin. The
 * list of a page is the list of each entity whose query key is the page's key (as the shell finds a
 * document page from its menu); the list screen shows 403 unless the entity declares that list.
 */
describe('every menu page opens for the admin', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
  })
  afterAll(async () => t?.close())

  it('declares and answers the list of every entity a menu page lists', async () => {
    const menus = pages((await t.call<MenuNode[]>('GET', '/auth/menus', { token: admin })).body.data)
    expect(menus.length).toBeGreaterThan(80)
    const registry = t.app.services.registry
    const listed = registry.all().filter((e) => e.file.api && e.file.views?.list)
    const refused: string[] = []
    let checked = 0
    for (const menu of menus) {
      const entities = listed.filter((e) => [...operationKeys(e, 'query'), `${e.file.api!.permission}:query`].includes(menu.permission!))
      for (const entity of entities) {
        const op = hasOperation(entity, 'query') ? 'query' : hasOperation(entity, 'trees') ? 'trees' : undefined
        // An entity without a family list is listed by a page of its own (a feature module), found by its route.
        if (!op && entity.file.api!.operations?.length === 0) continue
        if (!op) {
          refused.push(`${menu.name} ${menu.path}: ${entity.name} declares no list (api.operations)`)
          continue
        }
        const r = await t.call('GET', `${entity.file.api!.base}/${op}`, { token: admin })
        checked++
        if (r.status !== 200) refused.push(`${menu.name} ${menu.path}: GET ${entity.file.api!.base}/${op} → ${r.status} ${r.body.msg}`)
      }
    }
    expect(refused).toEqual([])
    expect(checked).toBeGreaterThan(40)
  })

  it('lets the admin call every list, picker, report and export', async () => {
    const forbidden: string[] = []
    for (const route of listRoutes(t.app.services)) {
      const r = route.method === 'GET' ? await t.call('GET', route.url, { token: admin }) : await t.call('POST', route.url, { token: admin, body: {} })
      if (r.status === 403) forbidden.push(`${route.method} ${route.url}: ${r.body.msg}`)
    }
    expect(forbidden).toEqual([])
  })
})

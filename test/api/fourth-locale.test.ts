import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadAllCatalogues } from '../../src/shared/i18n/all-catalogues.js'
import { registerLocale } from '../../src/shared/i18n/locales.js'
import { FRENCH } from '../fixtures/locale-fr-FR/row.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

const FR = { 'accept-language': 'fr-FR,fr;q=0.9' }

describe('a fourth language registered through the table of locales: the server answers in it', () => {
  let t: TestApp
  let admin: string
  beforeAll(async () => {
    registerLocale(FRENCH)
    await loadAllCatalogues()
    t = await startTestApp()
    admin = await t.login()
  })
  afterAll(async () => t?.close())

  it('answers a missing token and a field validation in French; nothing is saved', async () => {
    const info = await t.call('GET', '/auth/info', { headers: FR })
    expect(info.status).toBe(401)
    expect(info.body).toMatchObject({ code: 401, msg: "Veuillez d'abord vous connecter !" })

    const code = `FR${Date.now() % 1e8}`
    const refused = await t.call('POST', '/basedata/product/brand', { token: admin, body: { code, name: '' }, headers: FR })
    expect(refused.status).toBe(400)
    expect(refused.body.msg).toBe('Veuillez saisir Nom')
    const after = await t.call<{ totalCount: number }>('GET', '/basedata/product/brand/query', { token: admin, query: { code } })
    expect(after.body.data?.totalCount).toBe(0)
  })

  it('translates a document line message with its row number and label', async () => {
    const body = { warehouseId: 'none', supplierId: 'none', products: [{ productId: 'none', orderNum: 'x', taxPrice: '1' }] }
    const fr = await t.call('POST', '/purchase/order', { token: admin, body, headers: FR })
    expect(fr.status).toBe(400)
    expect(fr.body.msg).toBe('Ligne 1 (produit) : Quantité achetée doit être un entier')
  })

  it('keeps a word its catalogue lacks in Simplified, and the other languages as they were', async () => {
    const login = await t.call('POST', '/auth/login', { body: { username: 'admin', password: '' }, headers: FR })
    // 请输入{0} is in the catalogue, 密码 is not.
    expect(login.body.msg).toBe('Veuillez saisir 密码')
    const en = await t.call('GET', '/auth/info', { headers: { 'accept-language': 'en-US' } })
    expect(en.body.msg).toBe('Please sign in first!')
  })
})

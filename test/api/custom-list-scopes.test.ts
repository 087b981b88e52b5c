import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'
import { createTradeFixtures } from '../support/trade-fixtures.js'

type Row = Record<string, unknown>

/**
 * Custom lists read each table, main or joined, with the restriction of the table's own list: memorial
 * days (owner and shares), the file box and online workbooks (owner; a workbook's content follows it),
 * CRM customers (the CRM visibility), contacts (data permission), and a memorial's shares (its link
 * table). Salespeople A and B, C narrowed by a contact data permission, a designer D without a menu.
 */
describe('custom lists answer only the rows each table’s own list answers', () => {
  let t: TestApp
  let admin: string
  const tok: Record<'A' | 'B' | 'C' | 'D', string> = { A: '', B: '', C: '', D: '' }
  const lists: Record<string, string> = {}
  const memorial: Record<string, string> = {}
  const customer: Record<string, string> = {}

  const ok = async <T>(method: 'GET' | 'POST', url: string, token: string, body?: unknown, query?: Record<string, string | number>) => {
    const r = await t.call<T>(method, url, { token, body, query })
    expect(r.status, r.raw).toBe(200)
    expect(r.body.code, r.raw).toBe(200)
    return r.body.data
  }
  const created = (url: string, body: Record<string, unknown>, token = admin) => ok<string>('POST', url, token, body)

  const entities = new Map<string, { id: string; columns: Map<string, string> }>()
  async function entity(tableName: string) {
    let e = entities.get(tableName)
    if (!e) {
      const id = await created('/gen/data/entity/sync/table', { tableName, name: tableName })
      const columns = await ok<{ id: string; columnName: string }[]>('GET', '/gen/data/entity/columns', admin, undefined, { id })
      e = { id, columns: new Map(columns.map((c) => [c.columnName, c.id])) }
      entities.set(tableName, e)
    }
    return e
  }
  /** A data object over `main` (optionally joined LEFT on main.column = sub.column) and a list of `fields`. */
  async function list(name: string, main: [string, string], fields: string[], join?: { table: string; alias: string; mainColumn: string; subColumn: string }) {
    const m = await entity(main[0])
    const joins = []
    if (join) {
      const s = await entity(join.table)
      joins.push({ subTableId: s.id, subTableAlias: join.alias, relaType: 0, relaMode: 0, mainTableDetailIds: [m.columns.get(join.mainColumn)], subTableDetailIds: [s.columns.get(join.subColumn)] })
    }
    const dataObjId = await created('/gen/data/obj', { name, mainTableId: m.id, mainTableAlias: main[1], joins })
    lists[name] = await created('/gen/custom/list', {
      name,
      dataObjId,
      listType: 2,
      hasPage: true,
      treeData: false,
      idColumn: fields[0],
      allowExport: true,
      fields: fields.map((relaId) => ({ relaId, name: relaId })),
    })
  }

  const sorted = (values: unknown[]) => [...new Set(values.filter((v) => v !== null && v !== undefined && v !== '').map(String))].sort()

  /** The distinct values of `key` answered by the list's page, list, tree and export, each checked equal to `expected`. */
  async function expectEveryWay(name: string, key: string, who: keyof typeof tok, expected: string[]) {
    const token = tok[who]
    const id = lists[name]
    const page = await ok<{ datas: Row[]; totalCount: number }>('POST', '/gen/api/custom/list/query', token, { pageSize: 500 }, { id })
    expect(sorted(page.datas.map((r) => r[key])), `${name} page ${who}`).toEqual(expected)
    const all = await ok<Row[]>('POST', '/gen/api/custom/list/query/list', token, {}, { id })
    expect(sorted(all.map((r) => r[key])), `${name} list ${who}`).toEqual(expected)
    expect(page.totalCount, `${name} total ${who}`).toBe(all.length)
    const tree = await ok<Row[]>('POST', '/gen/api/custom/list/query/tree', token, {}, { id })
    expect(sorted(tree.map((r) => r[key])), `${name} tree ${who}`).toEqual(expected)
    const file = await t.call('POST', '/gen/api/custom/list/query/list/export', { token, query: { id }, body: {} })
    expect(file.status, file.raw).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer)
    const sheet = book.worksheets[0]
    const header = (sheet.getRow(1).values as unknown[]).map(String)
    const column = header.indexOf(key)
    expect(column, `${name} export header`).toBeGreaterThan(0)
    const cells: unknown[] = []
    sheet.eachRow((row, n) => {
      if (n > 1) cells.push(row.getCell(column).value)
    })
    expect(sorted(cells), `${name} export ${who}`).toEqual(expected)
  }

  const ids = (rows: { id: string }[]) => sorted(rows.map((r) => r.id))
  const own = {
    memorials: async (who: keyof typeof tok) => (await ok<{ datas: { id: string; sharedUserIds: string[] }[] }>('GET', '/basedata/memorial/query', tok[who], undefined, { pageSize: 100 })).datas,
    files: async (who: keyof typeof tok) => ids((await ok<{ datas: { id: string }[] }>('GET', '/sw/filebox/query', tok[who], undefined, { pageSize: 100 })).datas),
    workbooks: async (who: keyof typeof tok) => ids((await ok<{ datas: { id: string }[] }>('GET', '/sw/excel/query', tok[who], undefined, { pageSize: 100 })).datas),
    customers: async (who: keyof typeof tok) =>
      ids((await ok<{ datas: { id: string }[] }>('GET', '/basedata/customer/queryCustomerAss', tok[who], undefined, { scope: 1, pageSize: 200 })).datas),
    actions: async (who: keyof typeof tok) => ids((await ok<{ datas: { id: string }[] }>('GET', '/crm/action/query', tok[who], undefined, { pageSize: 100 })).datas),
    reports: async (who: keyof typeof tok) => ids((await ok<{ datas: { id: string }[] }>('GET', '/crm/workReport/list', tok[who], undefined, { reportType: 2, pageSize: 100 })).datas),
    contacts: async (who: keyof typeof tok) => ids((await ok<{ datas: { id: string }[] }>('GET', '/crm/contact/query', tok[who], undefined, { pageSize: 100 })).datas),
  }

  const upload = async (token: string, filename: string) => {
    const boundary = '----scopes-boundary'
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`),
      Buffer.from(`内容${filename}`),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const r = await t.app.inject({ method: 'POST', url: '/cloud-api/sw/filebox/upload', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-auth-token': token }, payload })
    expect(r.statusCode, r.body).toBe(200)
  }

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    await list('mem', ['crm_memorial', 'm'], ['m_id', 'm_title'])
    await list('userMem', ['sys_user', 'u'], ['u_id', 'm_id'], { table: 'crm_memorial', alias: 'm', mainColumn: 'id', subColumn: 'owner_id' })
    await list('shares', ['crm_memorial_shared_user_ids', 's'], ['s_owner_id', 's_ref_id'])
    await list('memShares', ['crm_memorial', 'm'], ['m_id', 's_owner_id'], { table: 'crm_memorial_shared_user_ids', alias: 's', mainColumn: 'id', subColumn: 'owner_id' })
    await list('box', ['sw_file_box', 'f'], ['f_id', 'f_name'])
    await list('userBox', ['sys_user', 'u'], ['u_id', 'f_id'], { table: 'sw_file_box', alias: 'f', mainColumn: 'id', subColumn: 'owner_id' })
    await list('cust', ['base_data_customer', 'c'], ['c_id', 'c_name'])
    await list('userCust', ['sys_user', 'u'], ['u_id', 'c_id'], { table: 'base_data_customer', alias: 'c', mainColumn: 'id', subColumn: 'owner_id' })
    await list('excel', ['sw_online_excel', 'w'], ['w_id', 'x_id', 'x_content'], { table: 'sw_online_excel_content', alias: 'x', mainColumn: 'id', subColumn: 'id' })
    await list('content', ['sw_online_excel_content', 'x'], ['x_id', 'x_content'])
    await list('userExcel', ['sys_user', 'u'], ['u_id', 'w_id'], { table: 'sw_online_excel', alias: 'w', mainColumn: 'id', subColumn: 'owner_id' })
    await list('contact', ['crm_contact', 'ct'], ['ct_id', 'ct_name'])
    await list('userContact', ['sys_user', 'u'], ['u_id', 'ct_id'], { table: 'crm_contact', alias: 'ct', mainColumn: 'id', subColumn: 'owner_id' })
    await list('notices', ['sys_notice', 'n'], ['n_id', 'n_user_id'])
    await list('noticeLogs', ['sys_notice_log', 'nl'], ['nl_id', 'nl_user_id'])
    await list('ownerRecords', ['crm_customer_owner_record', 'o'], ['o_id', 'o_customer_id'])
    await list('actions', ['crm_customer_action', 'a'], ['a_id', 'a_content'])
    await list('userActions', ['sys_user', 'u'], ['u_id', 'a_id'], { table: 'crm_customer_action', alias: 'a', mainColumn: 'id', subColumn: 'follower_id' })
    await list('reports', ['crm_work_report', 'r'], ['r_id', 'r_content'])
    await list('userReports', ['sys_user', 'u'], ['u_id', 'r_id'], { table: 'crm_work_report', alias: 'r', mainColumn: 'id', subColumn: 'create_by_id' })
    await list('recipients', ['crm_work_report_recipient', 'rr'], ['rr_id', 'rr_report_id'])
    const menuIds: string[] = []
    for (const [name, id] of Object.entries(lists))
      menuIds.push(await created('/system/menu', { code: `SCOPE${menuIds.length}`, title: name, display: 1, componentType: 1, component: id, path: `/scope/${name}`, available: true }))

    const keys = [
      'crm:memorial:query', 'crm:memorial:add', 'crm:memorial:share',
      'smart-work:file-box:query', 'smart-work:file-box:upload', 'smart-work:file-box:send',
      'smart-work:online-excel:query', 'smart-work:online-excel:add',
      'crm:customer:query', 'crm:customer:add', 'crm:contact:query', 'crm:contact:add',
      'crm:action:query', 'crm:action:add', 'crm:weekly-report:query', 'crm:weekly-report:add',
    ]
    for (const who of ['A', 'B', 'C'] as const) tok[who] = await userWithMenus(t, admin, `scope${who.toLowerCase()}`, keys, menuIds)
    // A designer of custom lists, granted no menu of them: runs any list, sees only what is theirs.
    tok.D = await userWithMenus(t, admin, 'scoped', ['development:custom-list:query', 'development:custom-list:add', 'crm:memorial:query', 'crm:memorial:add'])
    const userId = async (who: keyof typeof tok) => (await ok<{ user: { id: string } }>('GET', '/auth/info', tok[who])).user.id
    const [bId, cId] = [await userId('B'), await userId('C')]

    const day = { memorialType: 2, remindDays: 3, memorialDate: '2020-05-01' }
    for (const [name, who] of [['A私有', 'A'], ['A给C', 'A'], ['A给B', 'A'], ['B自己', 'B'], ['C自己', 'C'], ['D自己', 'D']] as const)
      memorial[name] = await created('/basedata/memorial', { ...day, title: name }, tok[who])
    await ok('POST', '/basedata/memorial/share', tok.A, { id: memorial['A给C'], userIds: [cId] })
    await ok('POST', '/basedata/memorial/share', tok.A, { id: memorial['A给B'], userIds: [bId] })

    for (const who of ['A', 'B', 'C'] as const) {
      await upload(tok[who], `${who}一.txt`)
      await upload(tok[who], `${who}二.txt`)
      await created('/sw/excel', { name: `${who}的表格` }, tok[who])
      customer[who] = await created('/crm/customer', { code: `SC${who}1`, name: `${who}的客户`, settleType: 1, available: true }, tok[who])
      await created('/crm/contact/createContact', { name: `${who}联系人`, customerId: customer[who] }, tok[who])
      await created('/crm/action/createAction', { customerId: customer[who], actionType: 1, content: `${who}的跟进` }, tok[who])
    }
    // A reports to C; B to nobody.
    await created('/crm/workReport/add', { reportType: 2, startDate: '2026-01-05', content: 'A的周报', recipientIds: [cId] }, tok.A)
    await created('/crm/workReport/add', { reportType: 2, startDate: '2026-01-05', content: 'B的周报' }, tok.B)
    customer.C2 = await created('/crm/customer', { code: 'SCC2', name: 'C的第二客户', settleType: 1, available: true }, tok.C)
    await created('/crm/contact/createContact', { name: 'C第二联系人', customerId: customer.C2 }, tok.C)
    await created('/basedata/customer', { code: 'SEA1', name: '公海客户', settleType: 1, available: true })
    // C's contacts are narrowed to the first customer (data permission 单据 model, detail 18 = 往来单位编号, equals).
    const saved = await t.call('POST', '/system/data/permission/data/saveData', {
      token: admin,
      body: { bizIds: [cId], bizType: 2, permissionType: 2, permission: JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 18, conditionType: 0, value: 'SCC1' }] }]) },
    })
    expect(saved.body.code, saved.raw).toBe(200)
  }, 180_000)
  afterAll(async () => t?.close())

  it('memorial days, as main and as joined table, and their shares: owner’s and shared ones only', async () => {
    expect(sorted((await own.memorials('B')).map((m) => m.id))).toEqual(sorted([memorial['B自己'], memorial['A给B']]))
    expect(sorted((await own.memorials('C')).map((m) => m.id))).toEqual(sorted([memorial['C自己'], memorial['A给C']]))
    for (const who of ['A', 'B', 'C'] as const) {
      const mine = await own.memorials(who)
      const expected = sorted(mine.map((m) => m.id))
      await expectEveryWay('mem', 'm_id', who, expected)
      await expectEveryWay('userMem', 'm_id', who, expected)
      const shared = sorted(mine.filter((m) => m.sharedUserIds.length).map((m) => m.id))
      await expectEveryWay('shares', 's_owner_id', who, shared)
      await expectEveryWay('memShares', 's_owner_id', who, shared)
    }
    // The main rows stay under a left join whose joined rows are out of reach: every user is listed.
    const users = await ok<Row[]>('POST', '/gen/api/custom/list/query/list', tok.B, {}, { id: lists.userMem })
    expect(sorted(users.map((r) => r.u_id)).length).toBeGreaterThanOrEqual(4)
  })

  it('file box and online workbooks (with their content), as main and as joined table: the owner’s only', async () => {
    for (const who of ['A', 'B', 'C'] as const) {
      const files = await own.files(who)
      expect(files).toHaveLength(2)
      await expectEveryWay('box', 'f_id', who, files)
      await expectEveryWay('userBox', 'f_id', who, files)
      const books = await own.workbooks(who)
      expect(books).toHaveLength(1)
      await expectEveryWay('excel', 'w_id', who, books)
      await expectEveryWay('excel', 'x_id', who, books)
      await expectEveryWay('content', 'x_id', who, books)
      await expectEveryWay('userExcel', 'w_id', who, books)
      const content = await ok<Row[]>('POST', '/gen/api/custom/list/query/list', tok[who], {}, { id: lists.content })
      expect(String(content[0].x_content)).toContain(`${who}的表格`)
    }
  })

  it('CRM customers, as main and as joined table: the salesperson’s visible customers only', async () => {
    expect(await own.customers('B')).toEqual([customer.B])
    for (const who of ['A', 'B', 'C'] as const) {
      const mine = await own.customers(who)
      await expectEveryWay('cust', 'c_id', who, mine)
      await expectEveryWay('userCust', 'c_id', who, mine)
      // A customer's owner history follows the customer.
      await expectEveryWay('ownerRecords', 'o_customer_id', who, mine)
    }
  })

  it('a contact data permission narrows contacts as main and as joined table (the sys_user join)', async () => {
    const narrowed = await own.contacts('C')
    expect(narrowed).toHaveLength(1)
    // C made two contacts (of customers C and C2); the data permission leaves the first.
    const all = await ok<{ datas: { name: string }[] }>('GET', '/crm/contact/query', admin, undefined, { pageSize: 100 })
    expect(all.datas.filter((c) => c.name.startsWith('C')).length).toBe(2)
    for (const who of ['A', 'C'] as const) {
      const mine = await own.contacts(who)
      await expectEveryWay('contact', 'ct_id', who, mine)
      await expectEveryWay('userContact', 'ct_id', who, mine)
    }
  })

  it('CRM follow-ups and work reports (with their recipients), as main and as joined table: the ones the caller may read', async () => {
    expect(await own.reports('C')).toHaveLength(1)
    expect(await own.reports('B')).toHaveLength(1)
    for (const who of ['A', 'B', 'C'] as const) {
      const actions = await own.actions(who)
      expect(actions).toHaveLength(1)
      await expectEveryWay('actions', 'a_id', who, actions)
      await expectEveryWay('userActions', 'a_id', who, actions)
      const reports = await own.reports(who)
      await expectEveryWay('reports', 'r_id', who, reports)
      await expectEveryWay('userReports', 'r_id', who, reports)
      const withRecipients = who === 'B' ? [] : reports
      await expectEveryWay('recipients', 'rr_report_id', who, withRecipients)
    }
  })

  it('notices and their read marks: what the caller’s bell shows, not colleagues’ personal notices, drafts or reads', async () => {
    const bId = (await ok<{ user: { id: string } }>('GET', '/auth/info', tok.B)).user.id
    const published = await created('/system/notice', { title: '全员公告', content: '<p>正文</p>', published: true })
    await created('/system/notice', { title: '草稿', content: '<p>草稿</p>' })
    // The admin reads the notice: a read mark of the admin's own.
    await ok('GET', '/system/notice/content', admin, undefined, { id: published })
    const file = (await ok<{ datas: { id: string }[] }>('GET', '/sw/filebox/query', tok.A, undefined, { pageSize: 1 })).datas[0].id
    await ok('POST', '/sw/filebox/send', tok.A, { id: file, userId: bId })
    const bell = async (who: keyof typeof tok) => ids((await ok<{ datas: { id: string }[] }>('GET', '/system/notice/query/my', tok[who], undefined, { pageSize: 100 })).datas)
    expect(await bell('C')).toContain(published)
    expect((await bell('B')).length).toBe((await bell('C')).length + 1)
    for (const who of ['B', 'C'] as const) {
      await expectEveryWay('notices', 'n_id', who, await bell(who))
      await expectEveryWay('noticeLogs', 'nl_user_id', who, [])
    }
    await expectEveryWay('notices', 'n_user_id', 'C', [])
    await expectEveryWay('notices', 'n_user_id', 'B', [bId])
  })

  it('a designer without a menu runs any list and gets only the rows the restrictions allow', async () => {
    const mine = (await own.memorials('D')).map((m) => m.id)
    expect(mine).toEqual([memorial['D自己']])
    await expectEveryWay('mem', 'm_id', 'D', mine)
    await expectEveryWay('userMem', 'm_id', 'D', mine)
    for (const [name, key] of [['shares', 's_owner_id'], ['box', 'f_id'], ['userBox', 'f_id'], ['excel', 'w_id'], ['content', 'x_id'], ['userExcel', 'w_id'], ['actions', 'a_id'], ['reports', 'r_id'], ['recipients', 'rr_report_id']] as const)
      await expectEveryWay(name, key, 'D', [])
    // No CRM user, D picks customers on the memorial form: the customers that picker lists, every one.
    const picked = ids((await ok<{ datas: { id: string }[] }>('GET', '/selector/customer', tok.D, undefined, { pageSize: 200 })).datas)
    expect(picked).toEqual(expect.arrayContaining([customer.A, customer.B, customer.C]))
    await expectEveryWay('cust', 'c_id', 'D', picked)
  })

  it('offers no table without a row rule to low-code, and no secret column', async () => {
    const tables = (await ok<{ tableName: string }[]>('GET', '/gen/simpledb/tables', admin)).map((x) => x.tableName)
    for (const hidden of ['crm_memorial__search', 'sw_file_box__search', 'sys_row_count', 'sys_user_role', 'sys_role_menu', 'sys_document_number'])
      expect(tables, hidden).not.toContain(hidden)
    for (const offered of ['crm_memorial', 'crm_memorial_shared_user_ids', 'sw_online_excel_content', 'sys_user']) expect(tables).toContain(offered)
    const refused = await t.call('POST', '/gen/data/entity/sync/table', { token: admin, body: { tableName: 'sys_user_role' } })
    expect(refused.status).toBe(400)
    expect(refused.body.msg).toBe('数据表【sys_user_role】不存在或不允许使用')
    const userColumns = await ok<{ columnName: string }[]>('GET', '/gen/simpledb/columns', admin, undefined, { tableName: 'sys_user' })
    expect(userColumns.map((c) => c.columnName)).not.toContain('password')
  })
})

/** A document's lines have no list of their own: a custom list reads those of the headers the caller may see. */
describe('custom lists read document lines through their header’s restriction', () => {
  let t: TestApp
  afterAll(async () => t?.close())

  it('a clerk narrowed to one supplier’s purchase orders sees only their lines, as main and as joined table', async () => {
    t = await startTestApp()
    const admin = await t.login()
    const f = await createTradeFixtures(t, admin)
    const created = async (url: string, body: Record<string, unknown>) => {
      const r = await t.call<string>('POST', url, { token: admin, body })
      expect(r.body.code, r.raw).toBe(200)
      return r.body.data
    }
    const otherSupplier = await created('/basedata/supplier', { code: 'LS2', name: '另一供应商', mnemonicCode: 'LY', settleType: 1, manageType: 1 })
    const order = (supplierId: string) =>
      created('/purchase/order/approve/pass/direct', {
        scId: f.scA, supplierId, products: [{ productId: f.p1, orderNum: 2, taxPrice: '10.00' }, { productId: f.p2, orderNum: 1, taxPrice: '5.00' }], payTypes: [{ id: f.payTypeId, payAmount: '25.00' }],
      })
    const mine = await order(f.supplierId)
    await order(otherSupplier)
    const entity = async (tableName: string) => {
      const id = await created('/gen/data/entity/sync/table', { tableName, name: tableName })
      const columns = (await t.call<{ id: string; columnName: string }[]>('GET', '/gen/data/entity/columns', { token: admin, query: { id } })).body.data
      return { id, columns: new Map(columns.map((c) => [c.columnName, c.id])) }
    }
    const header = await entity('tbl_purchase_order')
    const lines = await entity('tbl_purchase_order_detail')
    const list = async (name: string, dataObj: Record<string, unknown>, fields: string[]) => {
      const dataObjId = await created('/gen/data/obj', { name, ...dataObj })
      return created('/gen/custom/list', { name, dataObjId, listType: 2, hasPage: true, treeData: false, idColumn: fields[0], fields: fields.map((relaId) => ({ relaId })) })
    }
    const lineList = await list('明细', { mainTableId: lines.id, mainTableAlias: 'l' }, ['l_id', 'l_order_id'])
    const joined = await list('单据与明细', {
      mainTableId: header.id,
      mainTableAlias: 'o',
      joins: [{ subTableId: lines.id, subTableAlias: 'l', relaType: 0, relaMode: 1, mainTableDetailIds: [header.columns.get('id')], subTableDetailIds: [lines.columns.get('order_id')] }],
    }, ['l_id', 'o_id', 'l_order_id'])
    const menuIds = [
      await created('/system/menu', { code: 'LINES1', title: '明细', display: 1, componentType: 1, component: lineList, path: '/scope/lines', available: true }),
      await created('/system/menu', { code: 'LINES2', title: '单据与明细', display: 1, componentType: 1, component: joined, path: '/scope/joined', available: true }),
    ]
    const clerk = await userWithMenus(t, admin, 'scopelines', ['purchase:order:query'], menuIds)
    const clerkId = (await t.call<{ user: { id: string } }>('GET', '/auth/info', { token: clerk })).body.data.user.id
    // detail 18 = 往来单位编号, condition 0 = equals: the fixture supplier FS1 only.
    const saved = await t.call('POST', '/system/data/permission/data/saveData', {
      token: admin,
      body: { bizIds: [clerkId], bizType: 2, permissionType: 2, permission: JSON.stringify([{ nodeType: 1, calcType: 1, name: '并且', children: [{ nodeType: 2, detailId: 18, conditionType: 0, value: 'FS1' }] }]) },
    })
    expect(saved.body.code, saved.raw).toBe(200)
    expect((await t.call<{ datas: { id: string }[] }>('GET', '/purchase/order/query', { token: clerk })).body.data.datas.map((d) => d.id)).toEqual([mine])
    const rows = async (id: string, token: string) => (await t.call<Row[]>('POST', '/gen/api/custom/list/query/list', { token, query: { id }, body: {} })).body.data
    const parents = (r: Row[], key: string) => [...new Set(r.map((x) => x[key]).filter((v) => v !== null))]
    expect(parents(await rows(lineList, admin), 'l_order_id')).toHaveLength(2)
    const clerkLines = await rows(lineList, clerk)
    expect(clerkLines).toHaveLength(2)
    expect(parents(clerkLines, 'l_order_id')).toEqual([mine])
    // Joined RIGHT: the lines are the kept side, and a line of a header out of reach is absent, not headless.
    const both = await rows(joined, clerk)
    expect(both).toHaveLength(2)
    expect(parents(both, 'o_id')).toEqual([mine])
    expect(parents(both, 'l_order_id')).toEqual([mine])
  }, 120_000)
})

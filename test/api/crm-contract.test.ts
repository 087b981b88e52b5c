import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type HttpMethod, type TestApp } from '../support/test-app.js'
import { userWithMenus } from '../support/access-helpers.js'
import { crmCalls } from '../support/crm-deals-fixtures.js'

interface PaymentRow {
  id: string
  period: number
  planDate: string
  planAmount: string
  receivedAmount: string
  unreceivedAmount: string
  status: number
  overdue: boolean
  overdueDays: number
  records: { id: string; amount: string }[]
}
interface Payment {
  totalCount: number
  datas: PaymentRow[]
  planAmount: string
  receivedAmount: string
  unreceivedAmount: string
}

/** 合同 (/crm/contract/*): picker, approval, parent, attachments, collection plans and records. */
describe('CRM contracts', () => {
  let t: TestApp
  let admin: string
  let customerId: string
  let otherCustomer: string
  const { ok, call, refused, customer, userId } = crmCalls(() => t, () => admin)
  let n = 0
  const contract = (extra: Record<string, unknown> = {}) =>
    ok<string>('POST', '/crm/contract', { contractNo: `HT${++n}`, name: `年度供货合同${n}`, customerId, amount: '1000.00', signDate: '2026-01-05', ...extra })
  const approved = async (extra: Record<string, unknown> = {}) => {
    const id = await contract(extra)
    await ok('POST', '/crm/contract/approve', { id })
    return id
  }
  const payment = (contractId: string) => ok<Payment>('GET', '/crm/contract/queryPayment', undefined, { contractId })

  beforeAll(async () => {
    t = await startTestApp()
    admin = await t.login()
    customerId = await customer()
    otherCustomer = await customer('其他客户')
  })
  afterAll(async () => t?.close())

  it('creates, modifies, deletes; the picker query/load answer contractNo, name, customerId and principalId', async () => {
    const id = await contract({ amount: '0.1' })
    const got = await ok<Record<string, unknown>>('GET', '/crm/contract', undefined, { id })
    expect(got).toMatchObject({ contractNo: `HT${n}`, amount: '0.10', receivedAmount: '0.00', status: 0, customerId, principalId: await userId(admin) })
    await ok('PUT', '/crm/contract', { id, amount: '2000.50', endDate: '2026-12-31', startDate: '2026-01-01' })
    const page = await ok<{ totalCount: number; datas: Record<string, unknown>[] }>('POST', '/crm/contract/query', { contractNo: `HT${n}` })
    expect(page.totalCount).toBe(1)
    expect(page.datas[0]).toMatchObject({ id, contractNo: `HT${n}`, customerId, principalId: got.principalId, amount: '2000.50' })
    expect(page.datas[0].customerName).toMatch(/^华东贸易有限公司/)
    const loaded = await ok<Record<string, unknown>[]>('POST', '/crm/contract/load', { ids: [id] })
    expect(loaded.map((r) => [r.contractNo, r.customerId, r.principalId])).toEqual([[`HT${n}`, customerId, got.principalId]])
    await ok('DELETE', '/crm/contract', { id })
    expect((await call('GET', '/crm/contract', undefined, { id })).status).toBe(404)
  })

  it('refuses bad input in Chinese', async () => {
    await refused('POST', '/crm/contract', { contractNo: 'X1', name: 'a', customerId, amount: '0', signDate: '2026-01-01' }, '合同金额必须大于0')
    await refused('POST', '/crm/contract', { contractNo: 'X1', name: 'a', customerId, amount: '5', signDate: '' }, '签约日期不能为空')
    const id = await contract()
    await refused('POST', '/crm/contract', { contractNo: `HT${n}`, name: 'a', customerId, amount: '5', signDate: '2026-01-01' }, '合同编号重复，请重新输入')
    await refused('PUT', '/crm/contract', { id, startDate: '2026-05-01', endDate: '2026-04-01' }, '结束日期不能早于开始日期')
    const biz = await ok<string>('POST', '/crm/business', { name: '别家商机', customerId: otherCustomer, stage: 1, amount: '1', expectedCloseDate: '2030-01-01' })
    await refused('PUT', '/crm/contract', { id, businessId: biz }, '商机不属于该客户')
    const person = await ok<string>('POST', '/crm/contact/createContact', { name: '别家联系人', customerId: otherCustomer })
    await refused('PUT', '/crm/contract', { id, contactId: person }, '客户签约人不属于该客户')
  })

  it('parent contracts: queryParent answers the chain; a contract cannot sit below itself', async () => {
    const root = await contract()
    const mid = await contract({ parentId: root })
    const leaf = await contract({ parentId: mid })
    const chain = await ok<{ id: string }[]>('GET', '/crm/contract/queryParent', undefined, { id: leaf })
    expect(chain.map((c) => c.id)).toEqual([mid, root])
    expect(await ok('GET', '/crm/contract/queryParent', undefined, { id: root })).toEqual([])
    await refused('PUT', '/crm/contract', { id: root, parentId: leaf }, '上级合同不能是自身或下级合同')
    await refused('PUT', '/crm/contract', { id: root, parentId: root }, '上级合同不能是自身或下级合同')
    const children = await ok<{ totalCount: number }>('POST', '/crm/contract/query', { parentId: root })
    expect(children.totalCount).toBe(1)
  })

  it('approval: passed contracts are frozen; refusal needs a reason', async () => {
    const id = await contract()
    await refused('POST', '/crm/contract/approve', { id, status: 6 }, '请输入拒绝理由')
    await ok('POST', '/crm/contract/approve', { id })
    expect(await ok('GET', '/crm/contract', undefined, { id })).toMatchObject({ status: 3, approveBy: '系统管理员' })
    await refused('POST', '/crm/contract/approve', { id }, '合同已审核通过，不允许重复审核！')
    await refused('PUT', '/crm/contract', { id, name: '改名' }, '合同已审核通过，无法修改！')
    await refused('DELETE', '/crm/contract', { id }, '合同已审核通过，无法删除！')
  })

  it('collection plans never exceed the contract amount; periods, due dates, received, unreceived, overdue', async () => {
    const id = await contract({ amount: '1000.00' })
    await refused('POST', '/crm/contract/plan', { contractId: id, plans: [{ planDate: '2026-02-01', planAmount: '600' }, { planDate: '2026-03-01', planAmount: '400.01' }] },
      '回款计划总金额（1000.01）不能超过合同金额（1000.00）！')
    await refused('POST', '/crm/contract/plan', { contractId: id, plans: [{ planDate: '', planAmount: '1' }] }, '第1期计划回款日期不能为空')
    await refused('POST', '/crm/contract/plan', { contractId: id, plans: [{ planDate: '2026-02-01', planAmount: '0' }] }, '第1期计划回款金额必须大于0')
    await refused('POST', '/crm/contract/plan', { contractId: id, plans: [{ planDate: '2026-02-01', planAmount: '1.001' }] }, '第1期计划回款金额最多两位小数')
    const saved = await ok<Payment>('POST', '/crm/contract/plan', { contractId: id, plans: [{ planDate: '2020-02-01', planAmount: '600.00' }, { planDate: '2099-03-01', planAmount: '400' }] })
    expect(saved.datas.map((p) => [p.period, p.planDate, p.planAmount, p.unreceivedAmount, p.overdue, p.status])).toEqual([
      [1, '2020-02-01', '600.00', '600.00', true, 3],
      [2, '2099-03-01', '400.00', '400.00', false, 0],
    ])
    expect(saved.datas[0].overdueDays).toBeGreaterThan(2000)
    await refused('PUT', '/crm/contract', { id, amount: '999.99' }, '合同金额不能小于回款计划总金额（1000.00）！')

    // Collections need an approved contract, and never exceed the period.
    const [first, second] = saved.datas
    await refused('POST', '/crm/contract/receive', { planId: first.id, amount: '1', receiveDate: '2026-02-01' }, '合同未审核通过，无法登记回款！')
    await ok('POST', '/crm/contract/approve', { id })
    await refused('POST', '/crm/contract/receive', { planId: first.id, amount: '600.01', receiveDate: '2026-02-01' }, '回款金额不能超过第1期未回款金额（600.00）！')
    await refused('POST', '/crm/contract/receive', { planId: first.id, amount: '-1', receiveDate: '2026-02-01' }, '回款金额必须大于0')
    await refused('POST', '/crm/contract/receive', { planId: first.id, amount: 'abc', receiveDate: '2026-02-01' }, '回款金额格式不正确')
    await refused('POST', '/crm/contract/receive', { planId: first.id, amount: '1', receiveDate: '' }, '回款日期不能为空')
    await refused('POST', '/crm/contract/receive', { planId: 'nope', amount: '1', receiveDate: '2026-02-01' }, '回款计划不存在！')
    // 0.1 + 0.2 is exactly 0.3: decimals, not binary floating point.
    await ok('POST', '/crm/contract/receive', { planId: first.id, amount: '0.1', receiveDate: '2026-02-01', payMethod: '银行转账' })
    await ok('POST', '/crm/contract/receive', { planId: first.id, amount: '0.2', receiveDate: '2026-02-02' })
    let p = await payment(id)
    expect(p.datas[0]).toMatchObject({ receivedAmount: '0.30', unreceivedAmount: '599.70', status: 3, overdue: true })
    await ok('POST', '/crm/contract/receive', { planId: first.id, amount: '599.70', receiveDate: '2026-02-03' })
    await ok('POST', '/crm/contract/receive', { planId: second.id, amount: '100', receiveDate: '2026-02-03' })
    p = await payment(id)
    expect(p.datas.map((r) => [r.receivedAmount, r.unreceivedAmount, r.status, r.overdue, r.records.length])).toEqual([
      ['600.00', '0.00', 2, false, 3],
      ['100.00', '300.00', 1, false, 1],
    ])
    expect(p).toMatchObject({ planAmount: '1000.00', receivedAmount: '700.00', unreceivedAmount: '300.00' })
    expect(await ok('GET', '/crm/contract', undefined, { id })).toMatchObject({ receivedAmount: '700.00' })
    expect((await ok<Payment>('GET', '/crm/contract/queryPayment', undefined, { customerId, status: 1 })).datas.map((r) => r.id)).toEqual([second.id])

    // A period with collections keeps its row, cannot go below them, cannot be removed.
    await refused('POST', '/crm/contract/plan', { contractId: id, plans: [{ id: first.id, planDate: '2020-02-01', planAmount: '600' }, { id: second.id, planDate: '2099-03-01', planAmount: '99.99' }] },
      '第2期计划回款金额不能小于已回款金额（100.00）')
    await refused('POST', '/crm/contract/plan', { contractId: id, plans: [{ id: first.id, planDate: '2020-02-01', planAmount: '600' }] }, '第2期已有回款记录，不能删除')
    const re = await ok<Payment>('POST', '/crm/contract/plan', { contractId: id, plans: [{ id: second.id, planDate: '2099-03-01', planAmount: '150' }, { id: first.id, planDate: '2020-02-01', planAmount: '600' }, { planDate: '2099-09-01', planAmount: '250' }] })
    expect(re.datas.map((r) => [r.planDate, r.planAmount, r.receivedAmount])).toEqual([
      ['2020-02-01', '600.00', '600.00'],
      ['2099-03-01', '150.00', '100.00'],
      ['2099-09-01', '250.00', '0.00'],
    ])
    // Taking a collection back lowers both totals.
    const record = p.datas[1].records[0].id
    await ok('DELETE', '/crm/contract/receive', { id: record })
    expect(await ok('GET', '/crm/contract', undefined, { id })).toMatchObject({ receivedAmount: '600.00' })
    await refused('DELETE', '/crm/contract/receive', { id: record }, '回款记录不存在！')
  })

  it('10 concurrent collections against one period never exceed it', { timeout: 60_000 }, async () => {
    const id = await approved({ amount: '500.00' })
    const plan = await ok<Payment>('POST', '/crm/contract/plan', { contractId: id, plans: [{ planDate: '2099-01-01', planAmount: '100.00' }] })
    const planId = plan.datas[0].id
    const answers = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/crm/contract/receive', { planId, amount: '30.00', receiveDate: '2026-03-01' })))
    expect(answers.every((a) => a.status < 500)).toBe(true)
    const passed = answers.filter((a) => a.body.code === 200)
    expect(passed).toHaveLength(3)
    for (const a of answers.filter((x) => x.body.code !== 200)) expect(a.body.msg).toBe('回款金额不能超过第1期未回款金额（10.00）！')
    const p = await payment(id)
    expect(p.datas[0]).toMatchObject({ receivedAmount: '90.00', unreceivedAmount: '10.00' })
    expect(p.datas[0].records).toHaveLength(3)
    expect(await ok('GET', '/crm/contract', undefined, { id })).toMatchObject({ receivedAmount: '90.00' })
  })

  it('attachments through the upload store: upload, createFile, queryFile, download, fileRemoveId; print', async () => {
    const id = await contract()
    const boundary = '----crm' + Date.now()
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="合同扫描件.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      Buffer.from('%PDF-1.4 test'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const up = await t.app.inject({ method: 'POST', url: '/cloud-api/crm/contract/upload', headers: { 'x-auth-token': admin, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload })
    const url = (JSON.parse(up.body) as { data: string }).data
    expect(url).toMatch(/^\/cloud-api\/crm\/contract\/file\/.+\/contract-[0-9a-f]{32}\.pdf$/)
    await refused('GET', '/crm/contract/createFile', undefined, '附件地址不正确', { contractId: id, url: 'https://evil.example/x.pdf' })
    await refused('GET', '/crm/contract/createFile', undefined, '请先上传文件', { contractId: id })
    const fileId = await ok<string>('GET', '/crm/contract/createFile', undefined, { contractId: id, url, fileName: '合同扫描件.pdf', fileSize: 13 })
    const files = await ok<{ id: string; fileName: string; url: string }[]>('GET', '/crm/contract/queryFile', undefined, { contractId: id })
    expect(files.map((f) => [f.id, f.fileName, f.url])).toEqual([[fileId, '合同扫描件.pdf', url]])
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401)
    const download = await t.app.inject({ method: 'GET', url, headers: { 'x-auth-token': admin } })
    expect(download.statusCode).toBe(200)
    expect(download.body).toBe('%PDF-1.4 test')
    const printed = await ok<{ contract: { id: string }; files: unknown[]; payment: Payment }>('GET', '/crm/contract/print', undefined, { id })
    expect(printed.contract.id).toBe(id)
    expect(printed.files).toHaveLength(1)
    await ok('GET', '/crm/contract/fileRemoveId', undefined, { id: fileId })
    expect(await ok('GET', '/crm/contract/queryFile', undefined, { contractId: id })).toEqual([])
    await refused('GET', '/crm/contract/fileRemoveId', undefined, '附件不存在！', { id: fileId })
    const bad = await t.app.inject({
      method: 'POST', url: '/cloud-api/crm/contract/upload', headers: { 'x-auth-token': admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.exe"\r\n\r\nMZ\r\n--${boundary}--\r\n`)]),
    })
    expect(bad.statusCode).toBe(400)
  })

  it('keys and data permission: the picker for those who add opportunities-like forms; rows narrowed by the creator', async () => {
    const id = await contract()
    const viewer = await userWithMenus(t, admin, 'htview', ['crm:contract:query'])
    const outsider = await userWithMenus(t, admin, 'htout', [])
    expect((await call('POST', '/crm/contract/query', {}, undefined, viewer)).status).toBe(200)
    expect((await call('POST', '/crm/contract/query', {}, undefined, outsider)).status).toBe(403)
    expect((await call('POST', '/crm/contract/receive', { planId: 'x', amount: '1' }, undefined, viewer)).status).toBe(403)
    expect((await call('POST', '/crm/contract/approve', { id }, undefined, viewer)).status).toBe(403)
    expect((await call('GET', '/crm/contract/createFile', undefined, { contractId: id }, viewer)).status).toBe(403)
    expect((await call('GET', '/crm/contract/queryPayment', undefined, { contractId: id }, viewer)).status).toBe(200)
  })

  it('answers junk input to every CRM deal call with 4xx, never 5xx', { timeout: 60_000 }, async () => {
    const calls: [HttpMethod, string][] = [
      ['GET', '/crm/business/query'], ['GET', '/crm/business'], ['POST', '/crm/business'], ['PUT', '/crm/business'], ['DELETE', '/crm/business'], ['POST', '/crm/business/approve'],
      ['POST', '/crm/contract/query'], ['POST', '/crm/contract/load'], ['POST', '/crm/contract'], ['PUT', '/crm/contract'], ['DELETE', '/crm/contract'], ['POST', '/crm/contract/approve'],
      ['GET', '/crm/contract/createFile'], ['GET', '/crm/contract/fileRemoveId'], ['GET', '/crm/contract/queryPayment'], ['GET', '/crm/contract/queryParent'],
      ['GET', '/crm/contract/queryFile'], ['GET', '/crm/contract/print'], ['POST', '/crm/contract/plan'], ['POST', '/crm/contract/receive'], ['DELETE', '/crm/contract/receive'], ['POST', '/crm/contract/upload'],
      ['POST', '/crm/contact/createContact'], ['GET', '/crm/contact/query'], ['GET', '/crm/contact/getContactDetail'], ['GET', '/crm/contact/queryPageResult'], ['POST', '/crm/contact/upateContact'],
      ['GET', '/basedata/memorial/query'], ['GET', '/basedata/memorial/myRemindQuery'], ['DELETE', '/basedata/memorial/delete'], ['POST', '/basedata/memorial/share'], ['POST', '/basedata/memorial'], ['PUT', '/basedata/memorial'], ['GET', '/basedata/memorial'],
    ]
    const junk: unknown[] = [
      {}, [], { id: ['a'], ids: 'x', contractId: { a: 1 }, plans: 'x', planId: 5, amount: { v: 1 }, userIds: 'x', status: 'x', pageIndex: 'x' },
      { contractId: 'x', plans: [{ planDate: 5, planAmount: 'NaN', remindDays: 'x' }, null] }, { planId: 'x', amount: '1e999', receiveDate: 5 },
    ]
    const bad: string[] = []
    for (const [method, url] of calls)
      for (const body of junk) {
        const query = { id: 'x', contractId: 'x', url: 'x', customerId: 'x', status: '9', pageSize: '-1', fileSize: '-5' }
        const r = method === 'GET' ? await call(method, url, undefined, query) : await call(method, url, body, query)
        if (r.status >= 500) bad.push(`${method} ${url} ${JSON.stringify(body)}: ${r.raw}`)
      }
    expect(bad).toEqual([])
  })
})

import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import type { Db } from '../../db/dialect.js'
import { API_PREFIX, defineRoute } from '../../platform/routes.js'
import { paramsOf } from '../../engine/list-routes.js'
import { defineCallRoute, schemaAnswer } from '../../platform/call-routes.js'
import { defineCallListRoute } from '../../engine/call-list-routes.js'
import { crmDeals, crmMemorials, type MemorialRow, type Row } from '../../../shared/contracts/crm-deals.js'
import type { Page } from '../../../shared/contracts/call.js'
import { inTransaction } from '../../platform/db-tx.js'
import { invalid, notFound } from '../../platform/errors.js'
import { auditColumns } from '../../platform/audit-columns.js'
import { newId } from '../../platform/ids.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { saveUpload, sendUpload, type UploadKind } from '../../platform/uploads.js'
import { idsFrom, objectBody } from '../../engine/request-values.js'
import { pickerKeys } from '../../engine/picker-access.js'
import { followsParent } from '../../engine/parent-rows.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import { isBlank } from '../../../shared/metadata/validate-record.js'
import { approveRecord } from '../../domain/crm/approval.js'
import { BUSINESS_SUBJECT, crmBusinessHooks } from '../../domain/crm/business.js'
import { CONTRACT_SUBJECT, crmContractHooks, parentChain, queryPayment, recordReceive, removeReceive, savePlans } from '../../domain/crm/contract.js'
import { crmMemorialHooks, deleteMemorials, myReminders, shareMemorial } from '../../domain/crm/memorial.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'

/** Contract attachments: office documents, PDFs, images and archives, served back only as downloads. */
const ATTACHMENT_TYPES = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'csv', 'png', 'jpg', 'jpeg', 'gif', 'bmp', 'zip', 'rar', '7z']
const CONTRACT_FILE: UploadKind = {
  folder: 'contract',
  types: Object.fromEntries(ATTACHMENT_TYPES.map((e) => [e, e === 'pdf' ? 'application/pdf' : 'application/octet-stream'])),
  maxBytes: 20 * 1024 * 1024,
  missingMessage: '请选择要上传的附件！',
  typeMessage: `只能上传${ATTACHMENT_TYPES.join('、')}格式的附件！`,
  sizeMessage: '附件大小不能超过20MB！',
}
const FILE_PATH = '/crm/contract/file'
const MAX_FILES = 50

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

/**
 * CRM deals (001 §7 CRM, issue 13): opportunities (`/crm/business`, family from the entity file plus
 * approve), contracts (`/crm/contract/*`: picker query/load, approve, attachments, parent chain,
 * collection plans and records, print), contacts (`/crm/contact/*` with the spec's spellings) and
 * memorial days (`/basedata/memorial/*`). Rules live in src/server/domain/crm-*.ts.
 */
export function crmDealsModule(app: FastifyInstance, services: Services): void {
  const { registry, store, hooks } = services
  const business = registry.get('crmBusiness')
  const contract = registry.get('crmContract')
  hooks.on('crmContractFile', followsParent(store, contract, 'contract_id'))
  const contact = registry.get('crmContact')
  const memorial = registry.get('crmMemorial')
  const kind = services.databases.kind
  hooks.on('crmBusiness', crmBusinessHooks())
  hooks.on('crmContract', crmContractHooks())
  hooks.on('crmMemorial', crmMemorialHooks())
  hooks.on('crmContact', {
    async beforeSave({ ctx, mode, values }) {
      if (mode === 'create' && !values.ownerId) values.ownerId = ctx.userId
    },
  })

  /* ---------- 商机 ---------- */
  defineCallRoute(app, crmDeals.approveBusiness, {
    access: [PERMISSION.crm.business.approve],
    handler: async ({ ctx, body }) =>
      inTransaction(ctx.db, (trx) => approveRecord(trx, ctx, store, business, BUSINESS_SUBJECT, objectBody(body))),
  })

  /* ---------- 合同 ---------- */
  const contractList = contract.file.views!.list!
  const picker = contract.file.views!.picker!
  const pickerAccess = [...new Set([...pickerKeys(registry, picker.kind), ...operationKeys(contract, 'query')])]
  const values = (query: Record<string, unknown>, body: unknown) => ({ ...query, ...(body && typeof body === 'object' && !Array.isArray(body) ? (body as object) : {}) })

  // The contract picker (000 §7: POST, not GET): rows carry contractNo, name, customerId and principalId.
  defineCallListRoute(app, services, crmDeals.contractPage, {
    conditions: paramsOf(services, contract, contractList.query ?? []),
    access: pickerAccess,
    handler: async ({ ctx, query, body }) =>
      schemaAnswer<Page<Row>>(await store.list(ctx.db, ctx, contract, { params: contractList.query ?? [], columns: contractList.columns, values: values(query, body), paged: true, sort: contractList.sort })),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/crm/contract/load',
    access: pickerAccess,
    handler: async ({ ctx, body, query }) => store.loadByIds(ctx.db, ctx, contract, idsFrom(body, query), contractList.columns),
  })
  defineCallRoute(app, crmDeals.approveContract, {
    access: [PERMISSION.crm.contract.approve],
    handler: async ({ ctx, body }) =>
      inTransaction(ctx.db, (trx) => approveRecord(trx, ctx, store, contract, CONTRACT_SUBJECT, objectBody(body))),
  })
  defineCallListRoute(app, services, crmDeals.parents, {
    conditions: [{ name: 'id', label: '合同', kind: 'id' }],
    access: operationKeys(contract, 'get'),
    handler: async ({ ctx, query }) => schemaAnswer<Row[]>(await parentChain(ctx.db, ctx, store, contract, query.id)),
  })
  defineCallListRoute(app, services, crmDeals.payment, {
    conditions: [
      { name: 'contractId', label: '合同', kind: 'id' },
      { name: 'id', label: '合同', kind: 'id' },
      { name: 'customerId', label: '客户', kind: 'id' },
      { name: 'overdue', label: '已逾期', kind: 'boolean' },
      { name: 'status', label: '回款状态', kind: 'enum', enum: 'CRM_PAYMENT_PLAN_STATUS' },
    ],
    access: operationKeys(contract, 'get'),
    handler: async ({ ctx, query }) => queryPayment(ctx.db, ctx, store, contract, query),
  })
  defineCallRoute(app, crmDeals.savePlans, {
    access: [...operationKeys(contract, 'create'), ...operationKeys(contract, 'modify')],
    handler: async ({ ctx, body }) => {
      const input = objectBody(body)
      await inTransaction(ctx.db, (trx) => savePlans(trx, kind, ctx, store, contract, input.contractId, input.plans))
      return queryPayment(ctx.db, ctx, store, contract, { contractId: input.contractId, pageSize: 500 })
    },
  })
  defineCallRoute(app, crmDeals.receive, {
    access: [PERMISSION.crm.contract.receive],
    handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => recordReceive(trx, kind, ctx, store, contract, objectBody(body))),
  })
  defineCallRoute(app, crmDeals.removeReceive, {
    access: [PERMISSION.crm.contract.receive],
    handler: async ({ ctx, body, query }) => {
      const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).id : undefined
      return inTransaction(ctx.db, (trx) => removeReceive(trx, kind, ctx, store, contract, id ?? query.id))
    },
  })

  /* Attachments: the file goes to the upload store first, then createFile records it on the contract. */
  const fileWriters = [...operationKeys(contract, 'create'), ...operationKeys(contract, 'modify')]
  defineCallRoute(app, crmDeals.upload, {
    access: fileWriters,
    handler: async ({ ctx, req }) => {
      const name = await saveUpload(req, services.config.dataDir, ctx.tenantId, CONTRACT_FILE)
      return `${API_PREFIX}${FILE_PATH}/${ctx.tenantId}/${name}`
    },
  })
  defineRoute(app, {
    method: 'GET',
    url: `${FILE_PATH}/:tenantId/:name`,
    // Contracts are confidential: unlike images, an attachment is read with the token, in one's own tenant only.
    access: operationKeys(contract, 'get'),
    handler: async ({ ctx, req, reply }) => {
      const { tenantId, name } = req.params as { tenantId: string; name: string }
      if (tenantId !== ctx.tenantId) throw notFound('文件不存在！')
      reply.header('Content-Disposition', 'attachment')
      return sendUpload(reply, services.config.dataDir, tenantId, name, CONTRACT_FILE)
    },
  })
  defineCallRoute(app, crmDeals.createFile, {
    access: fileWriters,
    handler: async ({ ctx, query }) =>
      inTransaction(ctx.db, async (trx) => {
        const record = await store.get(trx, ctx, contract, query.contractId)
        const url = text(query.url)
        const prefix = `${API_PREFIX}${FILE_PATH}/${ctx.tenantId}/`
        if (!url) throw invalid('请先上传文件', 'url')
        if (!url.startsWith(prefix) || !/^contract-[0-9a-f]{32}\.[a-z0-9]+$/.test(url.slice(prefix.length))) throw invalid('附件地址不正确', 'url')
        const fileName = text(query.fileName) || url.slice(prefix.length)
        if (fileName.length > 200) throw invalid('文件名长度不能超过200个字符', 'fileName')
        const size = isBlank(query.fileSize) ? null : Number(query.fileSize)
        if (size !== null && (!Number.isInteger(size) || size < 0)) throw invalid('文件大小不正确', 'fileSize')
        const count = await trx.selectFrom('crm_contract_file').select((eb) => eb.fn.countAll().as('n')).where('contract_id', '=', String(record.id)).executeTakeFirst()
        if (Number(count?.n ?? 0) >= MAX_FILES) throw invalid(`每个合同最多${MAX_FILES}个附件`)
        const id = newId()
        await trx
          .insertInto('crm_contract_file')
          .values({ id, contract_id: String(record.id), file_name: fileName, url, file_size: size, ...auditColumns(ctx) })
          .execute()
        await writeOpLog(trx, ctx, '上传合同附件', OpLogType.OTHER, { id, contractId: record.id })
        return id
      }),
  })
  defineCallRoute(app, crmDeals.removeFile, {
    access: fileWriters,
    handler: async ({ ctx, query }) =>
      inTransaction(ctx.db, async (trx) => {
        const id = text(query.id)
        if (!id) throw invalid('请选择附件', 'id')
        const file = await trx.selectFrom('crm_contract_file').select(['id', 'contract_id']).where('id', '=', id).executeTakeFirst()
        if (!file) throw notFound('附件不存在！')
        await store.get(trx, ctx, contract, String(file.contract_id))
        await trx.deleteFrom('crm_contract_file').where('id', '=', id).execute()
        await writeOpLog(trx, ctx, '删除合同附件', OpLogType.OTHER, { id, contractId: file.contract_id })
      }),
  })
  const filesOf = async (db: Db, contractId: string) =>
    (await db.selectFrom('crm_contract_file').selectAll().where('contract_id', '=', contractId).orderBy('create_time').orderBy('id').execute()).map((f) => ({
      id: String(f.id),
      contractId: String(f.contract_id),
      fileName: String(f.file_name),
      url: String(f.url),
      fileSize: f.file_size === null ? null : Number(f.file_size),
      createBy: f.create_by ?? null,
      createTime: f.create_time ?? null,
    }))
  defineCallRoute(app, crmDeals.files, {
    access: operationKeys(contract, 'get'),
    handler: async ({ ctx, query }) => {
      const record = await store.get(ctx.db, ctx, contract, query.contractId ?? query.id)
      return filesOf(ctx.db, String(record.id))
    },
  })
  defineRoute(app, {
    method: 'GET',
    url: '/crm/contract/print',
    access: operationKeys(contract, 'get'),
    handler: async ({ ctx, query }) => {
      const record = await store.get(ctx.db, ctx, contract, query.id)
      const id = String(record.id)
      const payment = await queryPayment(ctx.db, ctx, store, contract, { contractId: id, pageSize: 500 })
      return { contract: record, payment, files: await filesOf(ctx.db, id), parents: await parentChain(ctx.db, ctx, store, contract, id) }
    },
  })

  /* ---------- 联系人 (the spec's spellings) ---------- */
  const contactList = contact.file.views!.list!
  const contactRequest = (v: Record<string, unknown>) => ({ params: contactList.query ?? [], columns: contactList.columns, values: v, paged: true, sort: contactList.sort })
  // A customer's contacts (the customer page's tab): the list narrowed to one customer.
  defineCallListRoute(app, services, crmDeals.contactsOf, {
    conditions: paramsOf(services, contact, contactList.query ?? []),
    access: operationKeys(contact, 'query'),
    handler: async ({ ctx, query }) => {
      if (!text(query.customerId)) throw invalid('请选择客户', 'customerId')
      return schemaAnswer<Page<Row>>(await store.list(ctx.db, ctx, contact, contactRequest(query)))
    },
  })

  /* ---------- 纪念日 ---------- */
  // One's own reminders (the bell polls it for whoever holds the memorial menu): only the caller's own and shared rows.
  defineCallListRoute(app, services, crmMemorials.reminders, {
    conditions: [],
    access: [PERMISSION.crm.memorial.query],
    handler: async ({ ctx }) => schemaAnswer<MemorialRow[]>(await myReminders(ctx.db, ctx, store, memorial)),
  })
  defineCallRoute(app, crmMemorials.remove, {
    access: [PERMISSION.crm.memorial.delete],
    handler: async ({ ctx, body, query }) => inTransaction(ctx.db, (trx) => deleteMemorials(trx, ctx, store, memorial, idsFrom(body, query))),
  })
  defineCallRoute(app, crmMemorials.share, {
    access: [PERMISSION.crm.memorial.share],
    handler: async ({ ctx, body }) => inTransaction(ctx.db, (trx) => shareMemorial(trx, ctx, store, memorial, objectBody(body))),
  })
}

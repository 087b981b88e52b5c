import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Services } from '../../engine/services.js'
import { lowcode, lowcodeChoices, lowcodeRuntime, type ListQuery } from '../../../shared/contracts/lowcode.js'
import type { CustomFormConfig, CustomListConfig, CustomPageConfig, CustomSelectorConfig, ListRow } from '../../../shared/contracts/lowcode-wire.js'
import { defineRoute } from '../../platform/routes.js'
import { defineCallRoute, schemaAnswer } from '../../platform/call-routes.js'
import { defineListRoute } from '../../engine/list-routes.js'
import type { RequestContext } from '../../platform/request-context.js'
import { invalid } from '../../platform/errors.js'
import { inTransaction } from '../../platform/db-tx.js'
import { idsFrom, objectBody } from '../../engine/request-values.js'
import { GEN_STATUS } from '../../../shared/generated/enum-codes.js'
import { tenantTables } from '../../lowcode/tenant-tables.js'
import { DATA_ENTITY, allowedTable, columnsFromTable, loadColumns, registerDataEntityHooks } from '../../lowcode/data-entity-columns.js'
import { columnWire, registerDataObjHooks, resolveDataObj } from '../../lowcode/data-object.js'
import { CUSTOM_FORM, listConfigWire, loadList, registerCustomListHooks } from '../../lowcode/custom-list-config.js'
import { parseListBody, queryAll, queryPage, queryTree } from '../../lowcode/custom-list-query.js'
import { runCustomListStatement } from '../../lowcode/custom-sql-check.js'
import { exportList } from '../../lowcode/custom-list-export.js'
import { formConfigWire, registerCustomFormHooks } from '../../lowcode/custom-form.js'
import { registerCustomPageHooks } from '../../lowcode/custom-page.js'
import { CUSTOM_SELECTOR, registerCustomSelectorHooks, selectorConfigWire } from '../../lowcode/custom-selector.js'
import { formHandler, formHandlerKeys } from '../../lowcode/form-handlers.js'
import { CUSTOM_PAGE, assertRuntimeAccess } from '../../lowcode/runtime-access.js'
import { forbidden } from '../../platform/errors.js'
import { hasPermission } from '../../platform/request-context.js'
import { generateFiles, zipFiles } from '../../lowcode/entity-generator.js'
import type { DataEntityColumn } from '../../lowcode/gen-data-types.js'
import type { Wire } from '../../engine/record-codec.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import { paramsOf, routeOf } from '../../platform/call-routes.js'
import type { CallContract, Page } from '../../../shared/contracts/call.js'
import { pickerCalls } from '../../../shared/contracts/picker-calls.js'

const GEN_TABLES = pickerCalls('gen/table')

const ENTITY_KEYS = [PERMISSION.development.dataEntity.query, PERMISSION.development.dataEntity.add, PERMISSION.development.dataEntity.modify]
const OBJ_KEYS = [PERMISSION.development.dataObj.query, PERMISSION.development.dataObj.add, PERMISSION.development.dataObj.modify]
const LIST_KEYS = [PERMISSION.development.customList.query, PERMISSION.development.customList.add, PERMISSION.development.customList.modify]
const SELECTOR_KEYS = [PERMISSION.development.customSelector.add, PERMISSION.development.customSelector.modify]
const GENERATE_KEYS = [PERMISSION.development.dataEntity.generate]

/**
 * The low-code layer beyond the generic families of its entity files (schemas/entities/gen-*.json,
 * whose hooks validate the child collections): database tables for data entities, column lists for
 * the designers, code generation, and the run-time calls of custom lists, forms, selectors and pages.
 * Run-time calls answer only to the admin, a designer of the object, or a user granted a menu that opens
 * it (lowcode/runtime-access.ts); a form's handler also needs the keys of what it reads or writes, and
 * data permissions still narrow what a list answers.
 */
export function lowcodeModule(app: FastifyInstance, services: Services): void {
  registerDataEntityHooks(services)
  registerDataObjHooks(services)
  registerCustomListHooks(services)
  registerCustomFormHooks(services)
  registerCustomSelectorHooks(services)
  registerCustomPageHooks(services)
  const { store, registry } = services
  const entityOf = (name: string) => registry.get(name)
  const tablesOf = (ctx: { db: Parameters<typeof tenantTables>[0]; tenantId: string }) =>
    tenantTables(ctx.db, registry, services.databases.schemaOf(ctx.tenantId))

  /* ---------- tables ---------- */

  defineRoute(app, {
    method: 'GET',
    url: '/gen/simpledb/tables',
    access: ENTITY_KEYS,
    handler: async ({ ctx, query }) => {
      const filter = typeof query.tableName === 'string' ? query.tableName.trim().toLowerCase() : ''
      return [...(await tablesOf(ctx)).values()]
        .filter((t) => !filter || t.tableName.includes(filter) || t.tableComment.includes(filter))
        .sort((a, b) => a.tableName.localeCompare(b.tableName))
        .map((t) => ({ tableName: t.tableName, tableComment: t.tableComment }))
    },
  })
  defineCallRoute(app, lowcode.tableColumns, {
    access: ENTITY_KEYS,
    // Each column with what a new data entity starts from (label, GEN_DATA_TYPE, view type), for the entity's column grid.
    handler: async ({ ctx, query }) => {
      const table = await allowedTable(services, ctx, ctx.db, query.tableName)
      const proposed = columnsFromTable(services, table)
      return table.columns.map((c, i) => ({ ...proposed[i], ...c }))
    },
  })
  const tableRow = (t: { tableName: string; tableComment: string }) => ({ id: t.tableName, tableName: t.tableName, name: t.tableComment || t.tableName, tableComment: t.tableComment })
  defineListRoute(app, services, {
    ...routeOf(GEN_TABLES.page),
    conditions: [],
    access: ENTITY_KEYS,
    handler: async ({ ctx, query }) => {
      const filter = typeof query.tableName === 'string' ? query.tableName.trim().toLowerCase() : ''
      const pageIndex = Math.max(1, Math.floor(Number(query.pageIndex ?? 1)) || 1)
      const pageSize = Math.min(500, Math.max(1, Math.floor(Number(query.pageSize ?? 20)) || 20))
      const all = [...(await tablesOf(ctx)).values()]
        .filter((t) => !filter || t.tableName.includes(filter) || t.tableComment.includes(filter))
        .sort((a, b) => a.tableName.localeCompare(b.tableName))
      return { pageIndex, pageSize, totalCount: all.length, datas: all.slice((pageIndex - 1) * pageSize, pageIndex * pageSize).map(tableRow) }
    },
  })
  defineRoute(app, {
    ...routeOf(GEN_TABLES.load),
    access: ENTITY_KEYS,
    handler: async ({ ctx, body, query }) => {
      const tables = await tablesOf(ctx)
      return idsFrom(body, query).flatMap((id) => {
        const t = tables.get(id)
        return t ? [tableRow(t)] : []
      })
    },
  })

  /* ---------- data entities ---------- */

  defineRoute(app, {
    method: 'POST',
    url: '/gen/data/entity/sync/table',
    access: [PERMISSION.development.dataEntity.add, PERMISSION.development.dataEntity.modify],
    handler: async ({ ctx, body }) => {
      const input = objectBody(body)
      const entity = entityOf(DATA_ENTITY)
      return inTransaction(ctx.db, async (trx) => {
        if (typeof input.id === 'string' && input.id) {
          const existing = await store.get(trx, ctx, entity, input.id)
          const table = await allowedTable(services, ctx, trx, existing.tableName)
          const columns = columnsFromTable(services, table, existing.columns as DataEntityColumn[])
          await store.modify(trx, ctx, entity, { ...existing, columns })
          return existing.id
        }
        const table = await allowedTable(services, ctx, trx, input.tableName)
        const name = (typeof input.name === 'string' && input.name.trim()) || table.tableComment || table.tableName
        return store.create(trx, ctx, entity, {
          name: [...name].slice(0, 20).join(''),
          categoryId: input.categoryId,
          tableName: table.tableName,
          genStatus: GEN_STATUS.SET_TABLE,
          description: input.description,
          columns: columnsFromTable(services, table),
        })
      })
    },
  })
  defineCallRoute(app, lowcode.entityColumns, {
    access: [...ENTITY_KEYS, ...OBJ_KEYS],
    handler: async ({ ctx, query }) => {
      if (typeof query.id !== 'string' || !query.id) throw invalid('请选择数据实体', 'id')
      await store.get(ctx.db, ctx, entityOf(DATA_ENTITY), query.id)
      return (await loadColumns(services, ctx.db, [query.id])).get(query.id) ?? []
    },
  })
  defineCallRoute(app, lowcodeChoices.objColumns, {
    access: [...OBJ_KEYS, ...LIST_KEYS, ...SELECTOR_KEYS],
    handler: async ({ ctx, query }) => {
      if (typeof query.id !== 'string' || !query.id) throw invalid('请选择数据对象', 'id')
      return (await resolveDataObj(services, ctx, ctx.db, query.id)).columns.map(columnWire)
    },
  })

  const filesOf = async (ctx: Parameters<typeof store.get>[1], id: unknown) => {
    const entity = await store.get(ctx.db, ctx, entityOf(DATA_ENTITY), id)
    return {
      entity,
      files: await generateFiles(
        { name: String(entity.name), tableName: String(entity.tableName), description: entity.description, columns: entity.columns as DataEntityColumn[] },
        registry.enums,
      ),
    }
  }
  defineRoute(app, {
    method: 'POST',
    url: '/gen/data/entity/generate',
    access: GENERATE_KEYS,
    handler: async ({ ctx, body, query }) => {
      const id = idsFrom(body, query)[0]
      const { files } = await filesOf(ctx, id)
      const entity = entityOf(DATA_ENTITY)
      const field = entity.byName.get('genStatus')
      await inTransaction(ctx.db, (trx) =>
        trx.updateTable(entity.table).set({ gen_status: services.codec.toColumn(field as never, GEN_STATUS.CREATED) }).where('id', '=', id).execute(),
      )
      return files
    },
  })
  defineCallRoute(app, lowcode.entityPreview, {
    access: GENERATE_KEYS,
    handler: async ({ ctx, query }) => (await filesOf(ctx, query.id)).files,
  })
  defineRoute(app, {
    method: 'GET',
    url: '/gen/data/entity/download',
    access: GENERATE_KEYS,
    handler: async ({ ctx, query, reply }) => {
      const { entity, files } = await filesOf(ctx, query.id)
      reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${String(entity.tableName)}.zip`)}`)
      reply.send(await zipFiles(files))
      return reply
    },
  })

  /* ---------- run time ---------- */

  const enabled = async (ctx: Parameters<typeof store.get>[1], name: string, id: unknown, what: string): Promise<Wire> => {
    if (typeof id !== 'string' || !id) throw invalid(`${what}不存在`)
    const entity = entityOf(name)
    const row = await ctx.db.selectFrom(entity.table).selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw invalid(`${what}不存在`)
    const wire = services.codec.fromRow(entity, row)
    if (wire.available === false) throw invalid(`${what}已停用`)
    return wire
  }

  defineCallRoute(app, lowcodeRuntime.listConfig, {
    access: 'login',
    handler: async ({ ctx, query }) => {
      await assertRuntimeAccess(services, ctx, 'list', query.id)
      return schemaAnswer<CustomListConfig>(listConfigWire(await loadList(services, ctx, ctx.db, query.id)))
    },
  })
  type Loaded = Awaited<ReturnType<typeof loadList>>
  type ListRequest = ReturnType<typeof parseListBody>
  /**
   * The list (`?id`) of a run-time query and the body's conditions, checked against it. The route's
   * method and path are its contract's; an export sends the file itself, so its answer is not the contract's.
   */
  const listQuery = <R,>(contract: CallContract<ListQuery, R>, answer: (ctx: RequestContext, loaded: Loaded, request: ListRequest, reply: FastifyReply) => Promise<R | FastifyReply>) =>
    defineRoute(app, {
      ...routeOf(contract),
      access: 'login',
      handler: async (input) => {
        const { ctx, reply } = input
        const { query: list, body: conditions } = paramsOf(contract, input)
        await assertRuntimeAccess(services, ctx, 'list', list.id)
        const loaded = await loadList(services, ctx, ctx.db, list.id)
        const request = parseListBody(loaded, conditions)
        return runCustomListStatement(String(loaded.list.name ?? ''), reply.log, () => answer(ctx, loaded, request, reply))
      },
    })
  const rows = (ctx: RequestContext, loaded: Loaded, request: ListRequest): Promise<ListRow[]> => queryAll(services, ctx, ctx.db, loaded, request)
  listQuery(lowcodeRuntime.query, async (ctx, loaded, request): Promise<Page<ListRow>> => {
    if (loaded.list.hasPage !== false) return queryPage(services, ctx, ctx.db, loaded, request)
    const datas = await rows(ctx, loaded, request)
    return { pageIndex: 1, pageSize: datas.length, totalCount: datas.length, datas }
  })
  listQuery(lowcodeRuntime.queryList, rows)
  listQuery(lowcodeRuntime.queryTree, (ctx, loaded, request): Promise<ListRow[]> => queryTree(services, ctx, ctx.db, loaded, request))
  listQuery(lowcodeRuntime.exportList, async (ctx, loaded, request, reply) => {
    if (loaded.list.allowExport !== true) throw invalid('该列表不允许导出')
    const buffer = await exportList(loaded, await rows(ctx, loaded, request), registry.enums)
    reply
      .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${String(loaded.list.name)}.xlsx`)}`)
    reply.send(buffer)
    return reply
  })
  defineCallRoute(app, lowcodeRuntime.selectorConfig, {
    access: 'login',
    handler: async ({ ctx, query }) => {
      await assertRuntimeAccess(services, ctx, 'selector', query.id)
      return schemaAnswer<CustomSelectorConfig>(selectorConfigWire(await enabled(ctx, CUSTOM_SELECTOR, query.id, '自定义选择器')))
    },
  })
  defineCallRoute(app, lowcodeRuntime.formConfig, {
    access: 'login',
    handler: async ({ ctx, query }) => {
      await assertRuntimeAccess(services, ctx, 'form', query.id)
      return schemaAnswer<CustomFormConfig>(formConfigWire(await enabled(ctx, CUSTOM_FORM, query.id, '自定义表单')))
    },
  })
  defineCallRoute(app, lowcodeRuntime.formValues, {
    access: 'login',
    handler: async ({ ctx, params: { query, body } }) => {
      await assertRuntimeAccess(services, ctx, 'form', query.id)
      const form = await enabled(ctx, CUSTOM_FORM, query.id, '自定义表单')
      if (form.requireQuery !== true) return null
      const handler = formHandler(form.queryBean, 'query')
      const keys = formHandlerKeys(services, handler, 'query')
      if (keys && !hasPermission(ctx, keys)) throw forbidden()
      return (await handler.query?.({ services, ctx, db: ctx.db, values: body && typeof body === 'object' && !Array.isArray(body) ? body : {} })) ?? null
    },
  })
  defineCallRoute(app, lowcodeRuntime.submitForm, {
    access: 'login',
    handler: async ({ ctx, params: { query, body } }) => {
      await assertRuntimeAccess(services, ctx, 'form', query.id)
      const form = await enabled(ctx, CUSTOM_FORM, query.id, '自定义表单')
      if (!form.handleBean) throw invalid('该表单未设置提交处理器')
      const handler = formHandler(form.handleBean, 'handle')
      const keys = formHandlerKeys(services, handler, 'handle')
      if (keys && !hasPermission(ctx, keys)) throw forbidden()
      const values = objectBody(body)
      return inTransaction(ctx.db, (trx) => handler.handle?.({ services, ctx, db: trx, values }) ?? Promise.resolve(null))
    },
  })
  defineCallRoute(app, lowcodeRuntime.pageConfig, {
    access: 'login',
    handler: async ({ ctx, query }) => {
      await assertRuntimeAccess(services, ctx, 'page', query.id)
      const page = await enabled(ctx, CUSTOM_PAGE, query.id, '自定义页面')
      return schemaAnswer<CustomPageConfig>({ id: page.id, name: page.name, componentConfig: page.componentConfig } satisfies Record<keyof CustomPageConfig, unknown>)
    },
  })
}

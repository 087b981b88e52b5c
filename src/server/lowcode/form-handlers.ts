import type { Db } from '../db/dialect.js'
import type { Services } from '../engine/services.js'
import type { RequestContext } from '../platform/request-context.js'
import { invalid } from '../platform/errors.js'
import { text } from './lowcode-values.js'
import { operationKeys, type Operation } from '../../shared/metadata/operation-keys.js'

/**
 * The server side of custom forms (the ancestor's Spring beans `handleBean` / `queryBean`): a form
 * names a handler here; nothing else runs on the server for a form. Handlers validate their input
 * with Chinese messages and write through the engine's store (validation, hooks, op log), inside
 * the transaction the route opens, so a failure writes nothing. Each side names the entity operation
 * it performs, and the route refuses (403) a caller without that operation's key: being allowed to open
 * the form is not being allowed to write what it writes.
 */
export interface FormHandlerInput {
  services: Services
  ctx: RequestContext
  /** The transaction (handle) or the tenant database (query). */
  db: Db
  values: Record<string, unknown>
}

export interface FormHandler {
  label: string
  /** `POST /gen/api/custom/form/handle`: the submitted values. */
  handle?(input: FormHandlerInput): Promise<unknown>
  /** What the handle side reads or writes (entity name and operation); absent when it touches no data. */
  handles?: { entity: string; operation: Operation }
  /** What the query side reads; absent when it touches no data. */
  queries?: { entity: string; operation: Operation }
  /** `POST /gen/api/custom/form/get` when the form requires a query: the values to fill in. */
  query?(input: FormHandlerInput): Promise<Record<string, unknown> | null>
}

const requireId = (values: Record<string, unknown>) => {
  const id = text(values.id)
  if (!id) throw invalid('请选择数据', 'id')
  return id
}

export const FORM_HANDLERS: Record<string, FormHandler> = {
  /** Answers what it was given: for forms that only run browser scripts. */
  echo: {
    label: '原样返回',
    async handle({ values }) {
      return values
    },
    async query({ values }) {
      return values
    },
  },
  /** Publishes a notice (title, content) through the notice entity's own validation. */
  createNotice: {
    label: '发布通知',
    handles: { entity: 'notice', operation: 'create' },
    async handle({ services, ctx, db, values }) {
      const title = text(values.title)
      if (!title) throw invalid('请输入标题', 'title')
      if (typeof values.content !== 'string' || !values.content.trim()) throw invalid('请输入内容', 'content')
      const id = await services.store.create(db, ctx, services.registry.get('notice'), { title, content: values.content, published: true, available: true })
      return { id }
    },
  },
  /** Changes a product category's remark; the query side loads the category for the form. */
  updateProductCategoryRemark: {
    label: '修改商品类目备注',
    handles: { entity: 'productCategory', operation: 'modify' },
    queries: { entity: 'productCategory', operation: 'get' },
    async query({ services, ctx, db, values }) {
      const category = await services.store.get(db, ctx, services.registry.get('productCategory'), requireId(values))
      return { id: category.id, code: category.code, name: category.name, description: category.description ?? '' }
    },
    async handle({ services, ctx, db, values }) {
      const id = requireId(values)
      if (values.description !== undefined && values.description !== null && typeof values.description !== 'string')
        throw invalid('备注格式不正确', 'description')
      const entity = services.registry.get('productCategory')
      const existing = await services.store.get(db, ctx, entity, id)
      await services.store.modify(db, ctx, entity, { ...existing, id, description: values.description ?? '' })
      return { id }
    },
  },
}

export function formHandler(name: unknown, side: 'handle' | 'query'): FormHandler {
  const handler = typeof name === 'string' && Object.prototype.hasOwnProperty.call(FORM_HANDLERS, name) ? FORM_HANDLERS[name] : undefined
  if (!handler || !handler[side]) throw invalid(`${side === 'handle' ? '提交' : '查询'}处理器【${String(name ?? '').slice(0, 100)}】不存在`)
  return handler
}

/**
 * The keys of which the caller needs one to run a handler's side: the permission keys of the entity
 * operation it declares (as the entity's own route checks them); none when the side touches no data.
 */
export function formHandlerKeys(services: Services, handler: FormHandler, side: 'handle' | 'query'): string[] | undefined {
  const touches = side === 'handle' ? handler.handles : handler.queries
  if (!touches) return undefined
  return operationKeys(services.registry.get(touches.entity), touches.operation)
}

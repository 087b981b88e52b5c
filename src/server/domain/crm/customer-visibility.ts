import { sql, type Expression, type SqlBool } from 'kysely'
import type { Db } from '../../db/dialect.js'
import { CRM_CUSTOMER_SCOPE as SCOPE } from '../../../shared/generated/enum-codes.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import { forbidden } from '../../platform/errors.js'
import { hasPermission, type RequestContext } from '../../platform/request-context.js'
import type { EntityHooks } from '../../engine/entity-hooks.js'
import type { Services } from '../../engine/services.js'
import { CUSTOMER_KEYS } from './customer-keys.js'
import { CUSTOMER_TABLE, deptSubtree, seaPredicate } from './public-sea.js'

/**
 * Which customers a CRM user sees. `scope` 1 (mine: owner is me), 2 (my departments and below: key
 * crm:customer:dept), 3 (all owned customers: key crm:customer:all); the sea shows the unowned
 * customers of the caller's pools.
 */
export async function customerScopePredicate(services: Services, db: Db, ctx: RequestContext, scope: number, alias = 't'): Promise<Expression<SqlBool>> {
  const owner = sql.ref(`${alias}.owner_id`)
  if (scope === SCOPE.ALL) {
    if (!hasPermission(ctx, [CUSTOMER_KEYS.all])) throw forbidden('无权查看全部客户')
    return sql<SqlBool>`${owner} is not null`
  }
  if (scope === SCOPE.DEPT) {
    if (!hasPermission(ctx, [CUSTOMER_KEYS.dept, CUSTOMER_KEYS.all])) throw forbidden('无权查看本部门客户')
    const depts = await deptSubtree(services, db, ctx.userId)
    return depts.length ? sql<SqlBool>`(${owner} is not null and ${sql.ref(`${alias}.dept_id`)} in (${sql.join(depts)}))` : sql<SqlBool>`${owner} = ${ctx.userId}`
  }
  return sql<SqlBool>`${owner} = ${ctx.userId}`
}

/** Every customer a CRM user may open (the widest tab the keys allow, plus the caller's sea), or undefined: all of them. */
export async function visibleCustomers(services: Services, db: Db, ctx: RequestContext, alias = 't'): Promise<Expression<SqlBool> | undefined> {
  if (ctx.isAdmin || hasPermission(ctx, [CUSTOMER_KEYS.all])) return undefined
  const owned = await customerScopePredicate(services, db, ctx, hasPermission(ctx, [CUSTOMER_KEYS.dept]) ? SCOPE.DEPT : SCOPE.MINE, alias)
  if (!hasPermission(ctx, [CUSTOMER_KEYS.sea, CUSTOMER_KEYS.claim])) return owned
  return sql<SqlBool>`(${owned} or ${await seaPredicate(services, db, ctx.userId, alias)})`
}

/**
 * The customer table is base data (every sale document, settlement and report reads all of it) and the
 * CRM's (a salesperson sees their own customers). The store restricts the customers of a CRM user (any of
 * `crmReads`, the keys of the CRM customer and follow-up screens) to the CRM rule (visibleCustomers)
 * unless they also read the master data: the admin, key crm:customer:all, the customer list's own query
 * key. So a salesperson's customers are the same wherever they are read (the CRM screens, the base-data
 * calls, the pickers, the exports, the custom lists) and written, while a clerk who is no CRM user
 * (settlement, sales documents, a list designer) reads the customers as before.
 */
export function crmCustomerRowRule(services: Services, crmReads: readonly string[]): EntityHooks {
  const customer = services.registry.get('customer')
  const masterReads = [CUSTOMER_KEYS.all, ...operationKeys(customer, 'query')]
  const readsAll = (ctx: RequestContext) => ctx.isAdmin || hasPermission(ctx, masterReads) || !hasPermission(ctx, crmReads)
  return {
    restrictRows: async ({ db, ctx }) => (readsAll(ctx) ? undefined : visibleCustomers(services, db, ctx)),
  }
}

/**
 * A contact is seen only with its customer: the store puts this under every list, get, modify, export
 * and reference of contacts, so a salesperson reaches no contact of a customer they cannot open.
 */
export function crmContactHooks(services: Services): EntityHooks {
  return {
    async restrictRows({ db, ctx }) {
      const customers = await visibleCustomers(services, db, ctx, 'vc')
      if (!customers) return undefined
      const visible = db.selectFrom(`${CUSTOMER_TABLE} as vc`).select('vc.id').where(customers)
      return sql<SqlBool>`${sql.ref('t.customer_id')} in (${visible})`
    },
  }
}

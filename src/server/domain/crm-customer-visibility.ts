import { sql, type Expression, type SqlBool } from 'kysely'
import type { Db } from '../db/dialect.js'
import { CRM_CUSTOMER_SCOPE as SCOPE } from '../../shared/generated/enum-codes.js'
import { forbidden } from '../platform/errors.js'
import { hasPermission, type RequestContext } from '../platform/request-context.js'
import type { EntityHooks } from '../engine/entity-hooks.js'
import type { Services } from '../services.js'
import { CUSTOMER_KEYS } from '../modules/crm/customer-keys.js'
import { CUSTOMER_TABLE, deptSubtree, seaPredicate } from './crm-public-sea.js'

/**
 * Which CRM customers a caller may open, as predicates over the customer row aliased `alias`: the CRM
 * customer lists and actions start from them, and what hangs off a customer (its contacts) follows them.
 */

/** The owned customers the caller may see in a scope tab (1 mine, 2 my departments and below, 3 all). */
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

/** Every customer the caller may open (the widest tab the keys allow, plus the caller's sea), or undefined: all of them. */
export async function visibleCustomers(services: Services, db: Db, ctx: RequestContext, alias = 't'): Promise<Expression<SqlBool> | undefined> {
  if (ctx.isAdmin || hasPermission(ctx, [CUSTOMER_KEYS.all])) return undefined
  const owned = await customerScopePredicate(services, db, ctx, hasPermission(ctx, [CUSTOMER_KEYS.dept]) ? SCOPE.DEPT : SCOPE.MINE, alias)
  if (!hasPermission(ctx, [CUSTOMER_KEYS.sea, CUSTOMER_KEYS.claim])) return owned
  return sql<SqlBool>`(${owned} or ${await seaPredicate(services, db, ctx.userId, alias)})`
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

import type { FastifyInstance } from 'fastify'
import { system } from '../../shared/contracts/system.js'
import { defineCallRoute } from '../platform/call-routes.js'
import { inTransaction } from '../platform/db-tx.js'
import { forbidden } from '../platform/errors.js'
import { hasPermission } from '../platform/request-context.js'
import { checkCodeRule, codeKeys, nextCode, numberedField, numberedFields } from './code-rules.js'
import type { Services } from './services.js'

/**
 * The numbering rules' own call and rule: `POST /system/code-rule/next` gives a code to whoever may
 * create a record of the rule's field; a modified rule must make codes the field accepts.
 */
export function registerCodeRuleRoutes(app: FastifyInstance, services: Services): void {
  const { registry } = services
  defineCallRoute(app, system.nextCode, {
    access: 'login',
    handler: async ({ ctx, params }) => {
      // Who may take no code at all learns nothing of the rules (not even which exist).
      if (!hasPermission(ctx, numberedFields(registry).flatMap(codeKeys))) throw forbidden()
      const numbered = numberedField(registry, params?.target)
      if (!hasPermission(ctx, codeKeys(numbered))) throw forbidden()
      return { code: await inTransaction(ctx.db, (trx) => nextCode(trx, numbered)) }
    },
  })
  services.hooks.on('codeRule', {
    async beforeSave({ values, existing }) {
      checkCodeRule(registry, { ...existing, ...values })
    },
  })
}

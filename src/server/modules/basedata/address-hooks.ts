import type { FieldModel } from '../../../shared/metadata/entity-model.js'
import { ADDRESS_ENTITY_TYPE } from '../../../shared/generated/enum-codes.js'
import { invalid } from '../../platform/errors.js'
import { updateColumns } from '../../platform/audit-columns.js'
import type { Services } from '../../engine/services.js'

/** Which entity an address belongs to, by ADDRESS_ENTITY_TYPE. */
const OWNER_ENTITY: Record<number, string> = {
  [ADDRESS_ENTITY_TYPE.SC]: 'storeCenter',
  [ADDRESS_ENTITY_TYPE.CUSTOMER]: 'customer',
  [ADDRESS_ENTITY_TYPE.SUPPLIER]: 'supplier',
  [ADDRESS_ENTITY_TYPE.MEMBER]: 'member',
  [ADDRESS_ENTITY_TYPE.SHOP]: 'shop',
}

/**
 * Addresses point at a warehouse, customer, supplier, member or shop by type and id (a reference the
 * entity file cannot type), and each owner has at most one default address per address type.
 */
export function registerAddressHooks(services: Services): void {
  const { registry, codec } = services
  services.hooks.on('address', {
    async beforeSave({ trx, values, existing }) {
      const type = Number(values.entityType ?? existing?.entityType)
      const id = String(values.entityId ?? existing?.entityId ?? '')
      const owner = registry.get(OWNER_ENTITY[type])
      if (!(await trx.selectFrom(owner.table).select('id').where('id', '=', id).executeTakeFirst()))
        throw invalid(`${owner.label}不存在`, 'entityId')
    },
    async afterSave({ trx, ctx, entity, values, existing, id }) {
      const isDefault = entity.byName.get('isDefault') as FieldModel
      if (!(values.isDefault ?? existing?.isDefault)) return
      const column = (name: string) => (entity.byName.get(name) as FieldModel).column
      await trx
        .updateTable(entity.table)
        .set({ [isDefault.column]: codec.toColumn(isDefault, false), ...updateColumns(ctx) })
        .where(column('entityType'), '=', Number(values.entityType ?? existing?.entityType))
        .where(column('entityId'), '=', String(values.entityId ?? existing?.entityId))
        .where(column('addressType'), '=', Number(values.addressType ?? existing?.addressType))
        .where('id', '<>', id)
        .execute()
    },
  })
}

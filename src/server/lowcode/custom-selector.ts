import type { Services } from '../engine/services.js'
import { invalid } from '../platform/errors.js'
import type { Wire } from '../engine/record-codec.js'
import { CUSTOM_LIST } from './custom-list-config.js'
import { resolveDataObj } from './data-object.js'
import { text } from './lowcode-values.js'

export const CUSTOM_SELECTOR = 'genCustomSelector'

/** A custom selector's id and name columns must be columns of its custom list's data object. */
export function registerCustomSelectorHooks(services: Services): void {
  services.hooks.on(CUSTOM_SELECTOR, {
    async beforeSave({ trx, ctx, values, existing }) {
      const merged: Wire = { ...existing, ...values }
      const list = await trx.selectFrom(services.registry.get(CUSTOM_LIST).table).select(['data_obj_id']).where('id', '=', String(merged.customListId ?? '')).executeTakeFirst()
      if (!list) throw invalid('自定义列表不存在', 'customListId')
      const obj = await resolveDataObj(services, ctx, trx, String(list.data_obj_id))
      if (!obj.byKey.has(text(merged.idColumn))) throw invalid('ID字段不存在', 'idColumn')
      if (!obj.byKey.has(text(merged.nameColumn))) throw invalid('名称字段不存在', 'nameColumn')
    },
  })
}

/** `GET /gen/api/custom/selector/config?id`. */
export function selectorConfigWire(selector: Wire) {
  return {
    id: selector.id,
    name: selector.name,
    customListId: selector.customListId,
    dialogTittle: selector.dialogTittle ?? null,
    dialogWidth: selector.dialogWidth ?? null,
    placeholder: selector.placeholder ?? null,
    idColumn: selector.idColumn,
    nameColumn: selector.nameColumn,
  }
}

import { pickerCall, pickerTypeCall } from '../../../shared/contracts/picker-calls.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { entityColumns } from '../list-columns.js'
import type { ListSource, SourceColumn } from '../list-source.js'

/**
 * An entity's `views.picker` as a list source: `/selector/{kind}`, its filters (a picker's search:
 * enabled records by default) and its columns in the server's order. A picker never shows the record id
 * (a 32-hex key is nothing a user reads or chooses by), whatever the view declares. Given a warehouse,
 * a picker declaring `warehouseStock` asks for each row's stock there and shows it after code and name.
 * Given one of the view's `types`, the rows come from that type's call, its defaults preselected in the search form.
 */
export function pickerSource(entity: EntityModel, warehouse?: string, type?: number): ListSource {
  const picker = entity.file.views!.picker!
  const typed = type === undefined ? undefined : picker.types?.[String(type)]
  const filters = (picker.filters ?? []).map((f) => {
    const preset = typed?.defaults?.[f.param ?? f.field]
    return preset === undefined ? f : { ...f, default: preset }
  })
  const columns: SourceColumn[] = entityColumns(entity, picker.columns, false).filter((c) => c.key !== 'id')
  const stock = picker.warehouseStock && warehouse ? picker.warehouseStock : undefined
  if (stock) columns.splice(2, 0, { key: stock.field, title: stock.label, width: 100, numeric: true })
  return {
    name: 'picker',
    call: typed ? pickerTypeCall(typed.path) : pickerCall(picker.kind),
    entity: entity.name,
    query: filters,
    context: 'picker',
    searchForm: { reset: Boolean(picker.resetButton), enter: picker.enterToSearch !== false, span: 8 },
    params: stock ? { [stock.param]: warehouse } : undefined,
    columns,
    size: 'small',
  }
}

import { pickerCall } from '../../../shared/contracts/picker-calls.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { entityColumns } from '../list-columns.js'
import type { ListSource, SourceColumn } from '../list-source.js'

/**
 * An entity's `views.picker` as a list source: `/selector/{kind}`, its filters (a picker's search:
 * enabled records by default) and its columns in the server's order. A picker never shows the record id
 * (a 32-hex key is nothing a user reads or chooses by), whatever the view declares. Given a warehouse,
 * a picker declaring `warehouseStock` asks for each row's stock there and shows it after code and name.
 */
export function pickerSource(entity: EntityModel, warehouse?: string): ListSource {
  const picker = entity.file.views!.picker!
  const columns: SourceColumn[] = entityColumns(entity, picker.columns, false).filter((c) => c.key !== 'id')
  const stock = picker.warehouseStock && warehouse ? picker.warehouseStock : undefined
  if (stock) columns.splice(2, 0, { key: stock.field, title: stock.label, width: 100, numeric: true })
  return {
    name: 'picker',
    call: pickerCall(picker.kind),
    entity: entity.name,
    query: picker.filters ?? [],
    context: 'picker',
    searchForm: { reset: Boolean(picker.resetButton), enter: Boolean(picker.enterToSearch), span: 8 },
    params: stock ? { [stock.param]: warehouse } : undefined,
    columns,
    size: 'small',
  }
}

import { Tag } from 'antd'
import type { ColumnType } from 'antd/es/table'
import type { Meta } from '../../api/meta.js'
import { enumColor, fieldText } from '../../runtime/field-text.js'
import type { CustomerRow } from './customer-api.js'
import { tr } from '../../i18n/use-tr.js'

/** Table columns for customer fields, titled and rendered from schemas/entities/customer.json. */
export function customerColumns(meta: Meta, names: readonly string[]): ColumnType<CustomerRow>[] {
  const entity = meta.entity('customer')
  return names.flatMap((name) => {
    const field = entity.byName.get(name)
    if (!field) return []
    return [
      {
        key: name,
        title: field.label,
        width: name === 'name' ? 200 : field.type === 'datetime' ? 170 : 120,
        ellipsis: true,
        render: (_v: unknown, row: CustomerRow) => {
          const text = fieldText(field, row, meta.enums)
          if (name === 'locked') return row.locked ? <Tag color="gold">{tr('已锁定')}</Tag> : null
          const color = enumColor(field, row[name], meta.enums)
          return color && text ? <Tag color={color}>{text}</Tag> : text
        },
      },
    ]
  })
}

/** The search form's fields of the customer lists (conditions the server's LIST_PARAMS accept). */
export const SEARCH_FIELDS = ['name', 'code', 'telephone', 'level', 'dealStatus'] as const

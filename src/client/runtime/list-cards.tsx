import type { ReactNode } from 'react'
import type { ColumnType } from 'antd/es/table'
import './list-cards.css'

/** What a cell of this column shows for the row: its own render, else the row's value. */
function cellOf<Row extends Record<string, unknown>>(column: ColumnType<Row>, row: Row, index: number): ReactNode {
  const value = typeof column.dataIndex === 'string' ? row[column.dataIndex] : undefined
  if (column.render) return column.render(value, row, index) as ReactNode
  return value === null || value === undefined ? null : String(value)
}

const isEmpty = (node: ReactNode) => node === null || node === undefined || node === false || node === ''

/**
 * The columns of a list as one card per row, for a phone: the column `titleKey` (else the first) is the
 * card's title, the others label and value one under the other (empty ones left out), the row's links at
 * the foot. The table keeps its paging, ticking and loading; only nothing is wider than the screen.
 */
export function cardColumn<Row extends Record<string, unknown>>(
  columns: readonly ColumnType<Row>[],
  actions?: (row: Row) => ReactNode,
  titleKey?: string,
): ColumnType<Row> {
  const first = columns.find((c) => c.key === titleKey) ?? columns[0]
  const rest = columns.filter((c) => c !== first)
  return {
    key: '__card',
    render: (_v, row, index) => (
      <div className="list-card">
        {first && <div className="list-card-title">{cellOf(first, row, index)}</div>}
        <dl className="list-card-fields">
          {rest.map((column) => {
            const cell = cellOf(column, row, index)
            if (isEmpty(cell)) return null
            return (
              <div key={String(column.key)} className="list-card-field">
                <dt>{column.title as ReactNode}</dt>
                <dd>{cell}</dd>
              </div>
            )
          })}
        </dl>
        {actions && <div className="list-card-actions">{actions(row)}</div>}
      </div>
    ),
  }
}

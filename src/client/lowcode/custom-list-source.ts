import { lowcodeRuntime } from '../../shared/contracts/lowcode.js'
import type { CustomListConfig } from '../../shared/contracts/lowcode-wire.js'
import { GEN_CUSTOM_LIST_TYPE as LT, GEN_QUERY_WIDTH_TYPE as WT } from '../../shared/generated/enum-codes.js'
import type { ListSource } from '../runtime/list-source.js'
import { ROW_KEY } from './format-rows.js'

/** Marks rows of a tree list: matches of the search are `"id@show": true`, the ancestors shown with them false (domain-rules §2.11). */
export const SHOW_MARK = 'id@show'

/** How a custom list reads its rows: a page at a time, all at once, or all at once nested as a tree. */
export type CustomListMode = 'page' | 'list' | 'tree'

export const customListMode = ({ listConfig }: CustomListConfig): CustomListMode => (listConfig.treeData ? 'tree' : listConfig.hasPage ? 'page' : 'list')

/** How a custom list's rows are chosen by its type (001 §2): a sequence list none (it marks the current row), single by radio, multiple by checkboxes. */
export const customListChoice = ({ listConfig }: CustomListConfig): 'single' | 'multiple' | undefined =>
  listConfig.listType === LT.SINGLE ? 'single' : listConfig.listType === LT.MULTIPLE ? 'multiple' : undefined

/**
 * A custom list as a source of the one list view (001 §2 "Custom list screen"): its run-time query
 * (`?id`, conditions posted), its fields as columns (those marked sortable ordered by the server),
 * paged or not, a tree by its id and parent columns shown expanded.
 */
export function customListSource(listId: string, config: CustomListConfig, choosing: boolean): ListSource {
  const { listConfig } = config
  const mode = customListMode(config)
  const idColumn = listConfig.idColumn || undefined
  const pidColumn = listConfig.treePidColumn || undefined
  return {
    name: 'custom-list-rows',
    call: mode === 'tree' ? lowcodeRuntime.queryTree : mode === 'list' ? lowcodeRuntime.queryList : lowcodeRuntime.query,
    params: { id: listId },
    query: [],
    columns: listConfig.fields.map((f) => {
      const minimum = f.widthType === WT.MIN
      return {
        key: f.columnName,
        title: f.name,
        width: f.width && !minimum ? f.width : undefined,
        minWidth: f.width && minimum ? f.width : undefined,
        numeric: f.isNumberType,
        sortable: f.sortable === true,
      }
    }),
    rowKey: ROW_KEY,
    // A list whose rows are chosen shows the tick column in place of the 序号.
    seq: !choosing,
    paged: mode === 'page',
    tree: mode === 'tree' && idColumn && pidColumn ? { parentField: pidColumn, idField: idColumn, expanded: true } : undefined,
  }
}

/**
 * What the low-code runtime calls answer (001 §3, domain-rules §2.11), as the `lowcode` server branch
 * sends them: `GET /gen/api/custom/{list,form,page,selector}/config?id`.
 */

/** One column of a custom list; `columnName` is the row property `{alias}_{column}` (or `custom_{alias}`). */
export interface ListFieldConfig {
  id?: string
  columnName: string
  name: string
  dataType?: number
  sortable?: boolean
  /** GEN_QUERY_WIDTH_TYPE: 0 fixed, 1 minimum. */
  widthType?: number
  width?: number
  isNumberType?: boolean
  hasAvailableTag?: boolean
  fixEnum?: boolean
  /** Enumeration name (schemas/enums.json) when fixEnum is set. */
  frontType?: string | null
  /** Script body run as `(cellValue, row)` in the sandbox; its result is the cell text. */
  formatter?: string | null
}

/** One input of the search form of a custom list. */
export interface ListQueryParamConfig {
  id?: string
  tableAlias: string
  /** The database column (conditions name it with tableAlias). */
  columnName: string
  name: string
  /** GEN_VIEW_TYPE */
  viewType: number
  /** GEN_DATA_TYPE */
  dataType: number
  /** QUERY_TYPE */
  queryType: number
  defaultValue?: string | null
  fixEnum?: boolean
  frontType?: string | null
  hasAvailableTag?: boolean
  dataDicCode?: string | null
  customSelectorId?: string | null
  formWidth?: number
  frontShow?: boolean
}

/** A toolbar or row button. */
export interface ListButtonConfig {
  id: string
  name: string
  icon?: string | null
  /** GEN_CUSTOM_LIST_BTN_TYPE: 0 external, 1 route, 2 custom form, 3 script. */
  btnType: number
  /** The URL, route, custom form id or script, by btnType. */
  btnConfig?: string | null
  /** GEN_CUSTOM_LIST_BTN_VIEW_TYPE: primary, default, dashed, danger, link, link-danger. */
  viewType?: string | null
  /** Custom form buttons: a script whose result is the form's request params. */
  requestParam?: string | null
  width?: number
}

export interface CustomListConfig {
  listConfig: {
    id: string
    name?: string
    /** GEN_CUSTOM_LIST_TYPE: 0 sequence, 1 single, 2 multiple. */
    listType: number
    labelWidth?: number
    hasPage: boolean
    treeData: boolean
    idColumn?: string | null
    treePidColumn?: string | null
    treeNodeColumn?: string | null
    treeChildrenKey?: string | null
    allowExport: boolean
    fields: ListFieldConfig[]
  }
  queryParams: ListQueryParamConfig[]
  toolbars: ListButtonConfig[]
  handleColumns: ListButtonConfig[]
}

/** The condition a list query sends (001 §3 "Query condition sent"). */
export interface ListCondition {
  tableAlias: string
  columnName: string
  queryType: number
  value?: string | number | boolean
  values?: (string | number | boolean)[]
}

export type ListRow = Record<string, unknown>

export interface CustomFormConfig {
  id?: string
  name?: string
  /** A Formily JSON schema (text or parsed), see formily-schema.ts. */
  formConfig: unknown
  isDialog: boolean
  dialogWidth?: string | null
  dialogTittle?: string | null
  requireQuery: boolean
  handleBean?: string | null
  prefixSubmit?: string | null
  suffixSubmit?: string | null
}

export interface CustomPageConfig {
  id: string
  name?: string
  componentConfig: string
}

export interface CustomSelectorConfig {
  id: string
  name?: string
  customListId: string
  dialogTittle?: string | null
  dialogWidth?: string | null
  placeholder?: string | null
  /** Row property holding the chosen value and its label. */
  idColumn: string
  nameColumn: string
}

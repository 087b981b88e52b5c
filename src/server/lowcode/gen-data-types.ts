import type { Field } from '../../shared/generated/entity.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import type { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { GEN_DATA_TYPE as T, GEN_VIEW_TYPE as V } from '../../shared/generated/enum-codes.js'

/** One column of a data entity as stored (gen_data_entity_detail) and sent on the wire. */
export interface DataEntityColumn {
  id?: string
  name: string
  columnName: string
  isKey: boolean
  dataType: number
  viewType: number
  fixEnum: boolean
  enumFront?: string | null
  dataDicId?: string | null
  customSelectorId?: string | null
  columnOrder: number
  dbDataType?: string | null
  description?: string | null
}

/** A database type name to GEN_DATA_TYPE (reading B), when no entity file says more. */
export function dataTypeOfSql(dbType: string): number {
  const t = dbType.toLowerCase()
  if (/^(bool|boolean)/.test(t)) return T.BOOLEAN
  if (/^(smallint|int2|tinyint)/.test(t)) return T.SHORT
  if (/^(bigint|int8|bigserial)/.test(t)) return T.LONG
  if (/^(int|integer|int4|serial|mediumint)/.test(t)) return T.INTEGER
  if (/^(real|double|float)/.test(t)) return T.DOUBLE
  if (/^(numeric|decimal|money)/.test(t)) return T.BIG_DECIMAL
  if (/^timestamp|^datetime/.test(t)) return T.LOCAL_DATE_TIME
  if (/^date/.test(t)) return T.LOCAL_DATE
  if (/^time/.test(t)) return T.LOCAL_TIME
  return T.STRING
}

/** GEN_DATA_TYPE of an entity file's field: the file knows what SQLite's text/integer columns mean. */
export function dataTypeOfField(field: FieldModel, enums: EnumCatalog): number {
  switch (field.type) {
    case 'integer':
      return T.LONG
    case 'decimal':
      return T.BIG_DECIMAL
    case 'boolean':
      return T.BOOLEAN
    case 'date':
      return T.LOCAL_DATE
    case 'datetime':
      return T.LOCAL_DATE_TIME
    case 'enum': {
      const kind = enums.codeKind(field.enum ?? '')
      return kind === 'integer' ? T.INTEGER : kind === 'boolean' ? T.BOOLEAN : T.STRING
    }
    default:
      return T.STRING
  }
}

export function viewTypeOf(dataType: number, field?: FieldModel): number {
  if (field?.enum || dataType === T.BOOLEAN) return V.SELECT
  if (field?.type === 'text') return V.TEXTAREA
  if (dataType === T.LOCAL_DATE_TIME) return V.DATETIME
  if (dataType === T.LOCAL_DATE) return V.DATE
  if (dataType === T.LOCAL_TIME) return V.TIME
  return V.INPUT
}

const INTEGER_TYPES = new Set<number>([T.INTEGER, T.SHORT, T.LONG])
const DECIMAL_TYPES = new Set<number>([T.DOUBLE, T.BIG_DECIMAL])

export const isIntegerType = (t: number) => INTEGER_TYPES.has(t)
export const isDecimalType = (t: number) => DECIMAL_TYPES.has(t)
export const isNumberType = (t: number) => INTEGER_TYPES.has(t) || DECIMAL_TYPES.has(t)

const CONTROL_OF_VIEW: Record<number, Field['control']> = {
  [V.INPUT]: 'input',
  [V.TEXTAREA]: 'textarea',
  [V.DATETIME]: 'datetime',
  [V.DATE]: 'date',
  [V.TIME]: 'input',
  [V.SELECT]: 'select',
  [V.DATE_RANGE]: 'datetime',
  [V.DATA_DIC]: 'select',
  [V.CUSTOM_SELECTOR]: 'picker',
}

/**
 * THE mapping from a data-entity column to an entity-file field. The code generator writes it into
 * the generated entity file; the custom-list runtime converts condition values and answered cells by
 * the same field type, so the generated object and the live list agree.
 */
export function fieldOfColumn(column: DataEntityColumn, enums: EnumCatalog): Field {
  const label = column.name
  const enumName = column.fixEnum && column.enumFront && enums.has(column.enumFront) ? column.enumFront : undefined
  let field: Field
  if (enumName && column.dataType === T.BOOLEAN) field = { type: 'boolean', label, enum: enumName }
  else if (enumName) field = { type: 'enum', label, enum: enumName }
  else if (isIntegerType(column.dataType)) field = { type: 'integer', label }
  else if (isDecimalType(column.dataType)) field = { type: 'decimal', label }
  else if (column.dataType === T.BOOLEAN) field = { type: 'boolean', label }
  else if (column.dataType === T.LOCAL_DATE) field = { type: 'date', label }
  else if (column.dataType === T.LOCAL_DATE_TIME) field = { type: 'datetime', label }
  else field = { type: column.viewType === V.TEXTAREA ? 'text' : 'string', label }
  const control = CONTROL_OF_VIEW[column.viewType]
  if (control && control !== 'picker' && !(control === 'select' && !field.enum)) field.control = control
  return field
}

/** Default column settings from a table column: the entity file's field when the table has one. */
export function columnFromTable(
  entity: EntityModel | undefined,
  enums: EnumCatalog,
  column: { columnName: string; dbDataType: string; isKey: boolean; ordinalPosition: number },
): DataEntityColumn {
  const field = entity ? [...entity.byName.values()].find((f) => f.column === column.columnName) : undefined
  const dataType = field ? dataTypeOfField(field, enums) : dataTypeOfSql(column.dbDataType)
  return {
    name: (field?.label ?? column.columnName).slice(0, 64),
    columnName: column.columnName,
    isKey: column.isKey,
    dataType,
    viewType: viewTypeOf(dataType, field),
    fixEnum: Boolean(field?.enum),
    enumFront: field?.enum ?? null,
    dataDicId: null,
    customSelectorId: null,
    columnOrder: column.ordinalPosition,
    dbDataType: column.dbDataType.slice(0, 64),
    description: null,
  }
}

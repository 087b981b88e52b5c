import { call } from '../api/call.js'
import ProposedInput from '../components/ProposedInput.js'
import type { FormControlProps } from '../components/form-controls.js'
import { pickerCalls } from '../../shared/contracts/picker-calls.js'
import { proposedAlias } from './table-alias.js'

/** The chosen 主表's table, as the data entity picker loads it. */
async function aliasOfMainTable(values: Record<string, unknown>): Promise<string | undefined> {
  const entityId = values.mainTableId
  if (typeof entityId !== 'string' || !entityId) return undefined
  const rows = await call(pickerCalls('gen/data/entity').load, [entityId], { hideError: true }).catch(() => [])
  const tableName = rows[0]?.tableName
  return typeof tableName === 'string' ? proposedAlias(tableName) : undefined
}

/** 主表别名 of the data object form: proposed from the chosen 主表's table (base_data_product → bdp) until the admin types one. */
export default function DataObjAliasInput(props: FormControlProps & { placeholder?: string }) {
  return <ProposedInput {...props} watch="mainTableId" propose={aliasOfMainTable} />
}

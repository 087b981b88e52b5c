import { useEffect, useState } from 'react'
import { call } from '../api/call.js'
import { lowcode, type GenTable } from '../../shared/contracts/lowcode.js'

/** A table as a dropdown shows it: its comment and its name. */
export const tableLabel = (t: GenTable) => (t.tableComment ? `${t.tableComment}（${t.tableName}）` : t.tableName)

/** The tenant's tables matching a search typed in a dropdown (name or comment), fetched a moment after typing stops. */
export function useGenTables(search: string): { tables: GenTable[]; loading: boolean } {
  const [tables, setTables] = useState<GenTable[]>([])
  const [loading, setLoading] = useState(false)
  useEffect(() => {
    let live = true
    setLoading(true)
    const timer = setTimeout(() => {
      call(lowcode.tables, { tableName: search, pageIndex: 1, pageSize: 50 })
        .then((page) => live && setTables(page.datas))
        .catch(() => live && setTables([]))
        .finally(() => live && setLoading(false))
    }, 200)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [search])
  return { tables, loading }
}

import { term, tr } from '../../i18n/use-tr.js'

/**
 * The pages of one document below its list menu (spec 000 §2 Routes). `addPayments` (a receive sheet's
 * 登记付款) is a settlement page: the settlement feature resolves it, parseDocumentRoute does not.
 */
export type DocumentMode = 'add' | 'modify' | 'approve' | 'detail' | 'receive' | 'addPayments'

export interface DocumentRoute {
  mode: DocumentMode
  /** Pattern relative to the list menu's path. */
  pattern: string
  id?: string
  /** `require/…` and `unrequire/…` variants force or drop the source-document link; absent: the configuration decides. */
  require?: boolean
}

const VERB: Record<DocumentMode, string> = { add: term('新增'), modify: term('修改'), approve: term('审核'), detail: term('查看'), receive: term('收货'), addPayments: term('登记付款') }

/**
 * Reads the part of the path after the list menu: `add`, `modify/{id}`, `approve/{id}`, `detail/{id}`,
 * `receive/{id}`, each optionally below `require/` or `unrequire/`. Anything else is no document page.
 */
export function parseDocumentRoute(rest: string): DocumentRoute | undefined {
  const parts = rest.split('/').filter(Boolean)
  let require: boolean | undefined
  let prefix = ''
  if (parts[0] === 'require' || parts[0] === 'unrequire') {
    require = parts[0] === 'require'
    prefix = `${parts.shift()}/`
  }
  const [mode, id, ...more] = parts
  if (more.length) return undefined
  if (mode === 'add' && id === undefined) return { mode, pattern: `${prefix}add`, require }
  if ((mode === 'modify' || mode === 'approve' || mode === 'detail' || mode === 'receive') && id)
    return { mode, pattern: `${prefix}${mode}/:id`, id: decodeURIComponent(id), require }
  return undefined
}

export const documentPageTitle = (mode: DocumentMode, subject: string) => tr(`${VERB[mode]}${subject}`)

/** The address of a document page below the list's menu path. */
export const documentPath = (menuPath: string, mode: DocumentMode, id?: string) =>
  `${menuPath.replace(/\/+$/, '')}/${mode}${id ? `/${encodeURIComponent(id)}` : ''}`

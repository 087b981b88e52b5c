import type { EntityFile } from '../generated/entity.js'

/** A list toolbar action that opens an import dialog of its own besides the entity's `import`. */
export interface ImportToolbarAction {
  /** `import/…`: the upload is `POST {api.base}/{key}`, its template `GET {api.base}/{key}/template`. */
  key: string
  label: string
  /** The key that may use it (the entity's import key when absent). */
  permission?: string
}

/**
 * The further imports a list offers (e.g. a purchase order list's 导入约定支付, `import/paytype`): custom
 * toolbar actions whose key starts with `import/`. The server registers the import at that path with that
 * key, and the list shows the button that opens its dialog, from this one declaration.
 */
export function importToolbarActions(file: EntityFile): ImportToolbarAction[] {
  return (file.views?.list?.toolbar ?? []).filter(
    (a): a is ImportToolbarAction => typeof a === 'object' && a !== null && typeof a.key === 'string' && a.key.startsWith('import/'),
  )
}

import path from 'node:path'
import type { DocumentSection } from '../../shared/metadata/document-model.js'
import type { DocumentHooks } from './document-store.js'
import type { EntityRegistry } from './entity-registry.js'

/** Makes the hooks of the documents that name them, once the app's services exist. */
export type DocumentHooksFactory<S> = (services: S) => DocumentHooks

/** Where a start-up message points: the file relative to the working directory when it lies below it. */
const shown = (file: string | undefined) => (file ? path.relative(process.cwd(), file) || file : '(unknown file)')

/**
 * The hooks factory of every document that names hooks (`document.hooks` of its file), by document name.
 * Checked at start-up, so a typo stops the server with a message instead of a document running without its
 * rules: a file that names hooks `named` does not hold fails naming the file and the name, and a name of
 * `named` that no document uses fails too (a renamed document would otherwise lose its hooks unseen).
 * `source` names where `named` is written, for the message.
 */
export function documentHookFactories<S>(
  registry: EntityRegistry,
  named: Readonly<Record<string, DocumentHooksFactory<S>>>,
  source: string,
): Map<string, DocumentHooksFactory<S>> {
  const bound = new Map<string, DocumentHooksFactory<S>>()
  const used = new Set<string>()
  for (const header of registry.documents()) {
    const hooks = (header.file.document as DocumentSection).hooks
    if (!hooks) continue
    const factory = Object.hasOwn(named, hooks) ? named[hooks] : undefined
    if (!factory)
      throw new Error(
        `${shown(registry.fileOf(header.name))}: document ${header.name} names hooks "${hooks}" that do not exist ` +
          `(单据 hooks 不存在; known in ${source}: ${Object.keys(named).sort().join(', ')})`,
      )
    bound.set(header.name, factory)
    used.add(hooks)
  }
  const unused = Object.keys(named).filter((name) => !used.has(name))
  if (unused.length) throw new Error(`${source}: document hooks ${unused.map((n) => `"${n}"`).join(', ')} named by no document file`)
  return bound
}

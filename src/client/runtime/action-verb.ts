import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { term } from '../i18n/use-tr.js'

/** The built-in actions an entity may call by a word of its own (`views.list.actionLabels`). */
export type NamedAction = 'modify' | 'detail'

export const DEFAULT_VERB: Record<NamedAction, string> = { modify: term('修改'), detail: term('详情') }

/** The word (untranslated) a built-in action shows under on this entity's buttons and dialog titles. */
export function actionVerb(entity: EntityModel, action: NamedAction): string {
  return entity.file.views?.list?.actionLabels?.[action] || DEFAULT_VERB[action]
}

import type { FieldModel } from '../../shared/metadata/entity-model.js'

/**
 * The refusal of a value another record already holds: the field's declared message, `{holder}` in it naming
 * that record (a menu's 名称). Where the holder is not at hand (an import's duplicate within the file, a
 * code found taken in bulk) the placeholder goes with its brackets, so the user never reads "{holder}".
 */
export function takenMessage(field: FieldModel, holder?: string): string {
  const message = field.uniqueMessage ?? `${field.label}重复，请重新输入`
  if (holder !== undefined) return message.replaceAll('{holder}', holder)
  return message.replace(/[【「“"(（]?\{holder\}[】」”")）]?/g, '')
}

import type { EntityFile } from '../../shared/generated/entity.js'

/** Keys whose string values are shown to the user as they are (labels, column and dialog titles, placeholders). */
const SHOWN = new Set(['label', 'title', 'subject', 'placeholder'])

/**
 * An entity file as the chosen language shows it: every shown text through the term catalogue (the
 * entity's own `label` object already carries its three languages and is left alone). Names, codes
 * and rules are untouched, so what the client sends is the same in every language.
 */
export function localizeEntityFile(file: EntityFile, translate: (text: string) => string): EntityFile {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk)
    if (!value || typeof value !== 'object') return value
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = SHOWN.has(key) && typeof item === 'string' ? translate(item) : walk(item)
    return out
  }
  return walk(file) as EntityFile
}

/**
 * Translation by the Simplified text: Simplified Chinese is the source language (the spec's exact
 * wording), and each other language has a catalogue keyed by the Simplified text. A key may carry
 * numbered parameters (`第{0}行：{1}`); what a parameter captures is translated in turn (a field label,
 * a nested message), so one entry covers every row number and every label.
 */
/** Simplified text (or pattern with `{n}`) -> translated text (same `{n}`). */
export type Catalogue = Readonly<Record<string, string>>

interface Pattern {
  regex: RegExp
  /** Parameter numbers in the order their groups appear. */
  order: number[]
  target: string
  /** Characters outside the parameters: the more, the more specific the pattern. */
  literal: number
}

export interface Translator {
  /** The text in the translator's language; the Simplified text itself when no entry covers it. */
  (text: string): string
  /**
   * The translated text, or undefined unless an entry covers it completely (every Chinese parameter
   * translated too): what the coverage checks count.
   */
  lookup(text: string): string | undefined
}

const PARAM = /\{(\d+)\}/g
const HAS_PARAM = /\{\d+\}/
const CHINESE = /[\u3400-\u9fff]/
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** Parameters never nest deeper than a message inside a row prefix inside a label. */
const MAX_DEPTH = 4
/** Translations remembered per translator (texts with row numbers and values are many; start over when full). */
const CACHE_LIMIT = 5000

function compile(key: string, target: string): Pattern {
  const order: number[] = []
  let source = ''
  let last = 0
  let literal = 0
  for (const m of key.matchAll(PARAM)) {
    const before = key.slice(last, m.index)
    source += escape(before) + '([\\s\\S]+?)'
    literal += before.length
    order.push(Number(m[1]))
    last = m.index + m[0].length
  }
  source += escape(key.slice(last))
  literal += key.length - last
  return { regex: new RegExp(`^${source}$`), order, target, literal }
}

/**
 * A translator over catalogues (earlier ones win). The most specific pattern (most fixed text) is
 * tried first, so `第{0}行商品{1}` wins over `第{0}行：{1}`.
 */
export function createTranslator(...catalogues: Catalogue[]): Translator {
  const exact = new Map<string, string>()
  const patterns: Pattern[] = []
  for (const catalogue of catalogues) {
    for (const [key, target] of Object.entries(catalogue)) {
      if (HAS_PARAM.test(key)) patterns.push(compile(key, target))
      else if (!exact.has(key)) exact.set(key, target)
    }
  }
  patterns.sort((a, b) => b.literal - a.literal)

  /** strict: a Chinese parameter that stays untranslated makes the pattern not apply. */
  const lookup = (text: string, depth: number, strict: boolean): string | undefined => {
    const hit = exact.get(text)
    if (hit !== undefined) return hit
    if (depth >= MAX_DEPTH || !CHINESE.test(text)) return undefined
    for (const p of patterns) {
      const m = p.regex.exec(text)
      if (!m) continue
      const values = new Map<number, string>()
      let complete = true
      p.order.forEach((n, i) => {
        const captured = m[i + 1]
        const translated = lookup(captured, depth + 1, strict)
        if (translated === undefined && CHINESE.test(captured)) complete = false
        values.set(n, translated ?? captured)
      })
      if (strict && !complete) continue
      return p.target.replace(PARAM, (all, n: string) => values.get(Number(n)) ?? all)
    }
    return undefined
  }
  const cache = new Map<string, string>()
  const translator = ((text: string) => {
    if (!text) return text
    let out = cache.get(text)
    if (out === undefined) {
      out = lookup(text, 0, true) ?? lookup(text, 0, false) ?? text
      if (cache.size >= CACHE_LIMIT) cache.clear()
      cache.set(text, out)
    }
    return out
  }) as Translator
  translator.lookup = (text) => lookup(text, 0, true)
  return translator
}

import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CATALOGUES, translatorOf } from '../../src/shared/i18n/all-catalogues.js'
import { EntityRegistry } from '../../src/server/engine/entity-registry.js'
import { FIGURES } from '../../src/server/domain/crm/work-report.js'

/**
 * How much of what users read is translated. The server's messages are found by scanning its source
 * for Chinese text thrown or answered (invalid/forbidden/notFound/relogin/BizError/msg:, and message
 * constants); a template's `${…}` becomes a parameter. Each budget is today's count of untranslated
 * texts: a new untranslated message fails the test, a translation lowers what remains.
 */
const root = path.resolve(import.meta.dirname, '../..')
const CHINESE = /[\u3400-\u9fff]/
/** Keys whose string values a screen shows as they are (as the client's localizeEntityFile reads them). */
const SHOWN_KEYS = new Set(['label', 'title', 'subject', 'placeholder'])

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full, ext) : ext.test(name) ? [full] : []
  })
}

/** A source literal's text: escapes undone, template parameters numbered `{0}`, `{1}`… */
function literalText(quote: string, body: string): string {
  let n = 0
  const text = quote === '`' ? body.replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}/g, () => `{${n++}}`) : body
  return text.replace(/\\(.)/g, '$1')
}

const THROWN =
  /(?:\b(?:invalid|forbidden|notFound|relogin)\(\s*|new BizError\(\s*\d+\s*,\s*|\bmsg\s*[:=]\s*|\bexport const [A-Z_]+\s*=\s*)(['`])((?:\\.|(?!\1)[^\\])*?)\1/g

function serverMessages(): string[] {
  const files = [...filesUnder(path.join(root, 'src/server'), /\.ts$/), path.join(root, 'src/shared/metadata/validate-record.ts')]
  const found = new Set<string>()
  for (const file of files) {
    const source = readFileSync(file, 'utf8')
    for (const m of source.matchAll(THROWN)) {
      const text = literalText(m[1], m[2])
      if (CHINESE.test(text)) found.add(text)
    }
  }
  return [...found].sort()
}

/** Messages written in schemas/ (required and rule messages, delete guards, confirmations). */
function schemaMessages(): string[] {
  const keys = new Set(['required', 'unique', 'minMessage', 'maxMessage', 'patternMessage', 'integerMessage', 'maxLengthMessage', 'message', 'notApproved', 'multipleMessage', 'zeroMessage', 'uniqueMessage', 'confirm', 'done'])
  const found = new Set<string>()
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) {
        if (keys.has(key) && typeof item === 'string' && CHINESE.test(item)) found.add(item.replace(/\{[a-z]+\}/g, (_, i) => `{${i}}`))
        walk(item)
      }
  }
  for (const dir of ['schemas/entities', 'schemas/documents'])
    for (const file of filesUnder(path.join(root, dir), /\.json$/)) walk(JSON.parse(readFileSync(file, 'utf8')))
  return [...found].sort()
}

/** Covered: an entry for the text itself, or the text with sample values translates completely. */
function untranslated(texts: string[]): string[] {
  const en = translatorOf('en-US')
  const keys = new Set(Object.keys(CATALOGUES['en-US'].messages))
  return texts.filter((text) => !keys.has(text) && en.lookup(text.replace(/\{\d+\}/g, '7')) === undefined)
}

describe('translation coverage', () => {
  it('server messages: untranslated ones stay within the budget', () => {
    const all = serverMessages()
    const missing = untranslated(all)
    // Guard against a scan that silently finds nothing.
    expect(all.length).toBeGreaterThan(400)
    if (missing.length) console.info(`untranslated server messages (${missing.length}/${all.length}):\n${missing.join('\n')}`)
    expect(missing.length).toBeLessThanOrEqual(SERVER_BUDGET)
  })

  it('schema messages: untranslated ones stay within the budget', () => {
    const all = schemaMessages()
    const missing = untranslated(all)
    expect(all.length).toBeGreaterThan(150)
    if (missing.length) console.info(`untranslated schema messages (${missing.length}/${all.length}):\n${missing.join('\n')}`)
    expect(missing.length).toBeLessThanOrEqual(SCHEMA_BUDGET)
  })

  it('every fixed text the browser passes to tr() or marks with term() has an English entry', () => {
    const en = translatorOf('en-US')
    const missing = new Set<string>()
    for (const file of filesUnder(path.join(root, 'src/client'), /\.tsx?$/)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\b(?:tr|term)\((['`])((?:\\.|(?!\1)[^\\])*?)\1\)/g)) {
        const text = literalText(m[1], m[2])
        // A text of parameters only (`${verb}${subject}`) is covered by what its parts are; adjacent
        // parameters (第{0}行{1}{2}: a line subject, then its message) by the entries for each subject.
        if (!CHINESE.test(text) || /\}\{/.test(text)) continue
        if (en.lookup(text.replace(/\{\d+\}/g, 'X')) === undefined) missing.add(text)
      }
    }
    expect([...missing]).toEqual([])
  })

  it('Traditional Chinese has every entry English has (scripts/i18n-zh-hk.py keeps them together)', () => {
    for (const kind of ['terms', 'messages'] as const) {
      const en = Object.keys(CATALOGUES['en-US'][kind]).sort()
      const hk = Object.keys(CATALOGUES['zh-HK'][kind]).sort()
      expect(hk).toEqual(en)
    }
  })

  it('every label the schemas give a screen has its entry, those the engine derives and the server sends too', () => {
    const en = new Set([...Object.keys(CATALOGUES['en-US'].terms), ...Object.keys(CATALOGUES['en-US'].messages)])
    const missing = new Set<string>()
    const need = (text: string | undefined, where: string) => text && CHINESE.test(text) && !en.has(text) && missing.add(`${text} (${where})`)
    // Labels, titles and placeholders written in the files (views, row actions, line columns).
    const walk = (value: unknown, where: string): void => {
      if (Array.isArray(value)) value.forEach((v) => walk(v, where))
      else if (value && typeof value === 'object')
        for (const [key, item] of Object.entries(value)) {
          if (key === 'description') continue
          if (['label', 'title', 'placeholder'].includes(key) && typeof item === 'string') need(item, where)
          walk(item, where)
        }
    }
    for (const dir of ['schemas/entities', 'schemas/documents'])
      for (const file of filesUnder(path.join(root, dir), /\.json$/)) walk(JSON.parse(readFileSync(file, 'utf8')), path.basename(file))
    // Fields the engine builds at run time (document totals, audit columns, line fields) with their labels.
    for (const entity of new EntityRegistry().all()) for (const field of entity.byName.values()) need(field.label, `${entity.name}.${field.name}`)
    // Chart and column labels the server answers (周报/月报 figures).
    for (const figure of FIGURES) need(figure.label, 'work report figures')
    expect([...missing]).toEqual([])
  })

  it('every text the modules that declare screens build at load time has its entry (list views, shared query contracts)', async () => {
    // Their values, not their source: columns, params and options made by code (spread, mapped, taken from
    // a shared contract like STOCK_LOT_PARAMS) are checked as the screen receives them.
    const en = translatorOf('en-US')
    const missing = new Set<string>()
    const seen = new Set<unknown>()
    let checked = 0
    const walk = (value: unknown, where: string, depth: number): void => {
      if (!value || typeof value !== 'object' || seen.has(value) || depth > 8) return
      seen.add(value)
      for (const [key, item] of Object.entries(value)) {
        if (SHOWN_KEYS.has(key) && typeof item === 'string' && CHINESE.test(item)) {
          checked += 1
          if (en.lookup(item) === undefined) missing.add(`${item} (${where})`)
        } else walk(item, where, depth + 1)
      }
    }
    const modules = [...filesUnder(path.join(root, 'src/client/views'), /\.ts$/), ...filesUnder(path.join(root, 'src/shared/contracts'), /\.ts$/)]
    for (const file of modules) walk(await import(file), path.relative(root, file), 0)
    // Guard against a walk that silently reads nothing.
    expect(checked).toBeGreaterThan(100)
    expect([...missing]).toEqual([])
  })

  it('every seeded menu shown in the menu tree has its titles', () => {
    type Node = { title: string; display: number; children?: Node[] }
    const { menus } = JSON.parse(readFileSync(path.join(root, 'schemas/seed/menus.json'), 'utf8')) as { menus: Node[] }
    const missing: string[] = []
    const walk = (nodes: Node[]) => {
      for (const n of nodes) {
        // Buttons (display 2) never reach the menu tree.
        if (n.display !== 2 && !(n.title in CATALOGUES['en-US'].terms)) missing.push(n.title)
        walk(n.children ?? [])
      }
    }
    walk(menus)
    expect(missing).toEqual([])
  })
})

/** 第{0}行{1}{2} (a line message with its subject) is covered per subject (第{0}行商品{1}…), not as one pattern. */
const SERVER_BUDGET = 0
const SCHEMA_BUDGET = 0

import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * How much of what the browser shows is still Simplified-only. The client's source is parsed (so
 * comments never count) and every Chinese string literal, template and JSX text is counted unless it
 * sits inside a `tr(…)` / `t(…)` call (or `term(…)`, a table's text translated where shown), is part of a type, or its line ends with `// i18n-ignore` (a
 * text that is data: an enum code, a wire message the server compares, a pattern). Each top-level
 * directory of src/client has a budget: today's count; translating lowers it, a new bare text fails.
 */
const root = path.resolve(import.meta.dirname, '../..')
const clientRoot = path.join(root, 'src/client')
const CHINESE = /[\u3400-\u9fff]/
const TRANSLATING_CALLS = new Set(['tr', 't', 'term'])

/** Files whose Chinese is not a bare text, with the reason. */
const EXEMPT_FILES: Record<string, string> = {
  'i18n/messages.ts': 'the shell catalogue itself: each entry holds its three languages side by side',
}

export interface BareText {
  line: number
  text: string
}

/** The Chinese texts of one source file that no translation reaches. */
export function bareTexts(fileName: string, source: string): BareText[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind)
  const lines = source.split('\n')
  const ignored = (node: ts.Node) => {
    const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line
    const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line
    for (let l = first; l <= last; l++) if (/\/\/\s*i18n-ignore\b/.test(lines[l] ?? '')) return true
    return false
  }
  const translated = (node: ts.Node): boolean => {
    for (let p = node.parent; p; p = p.parent) {
      if (ts.isCallExpression(p) && ts.isIdentifier(p.expression) && TRANSLATING_CALLS.has(p.expression.text)) return true
      if (ts.isTypeNode(p) || ts.isImportDeclaration(p) || ts.isExportDeclaration(p)) return true
    }
    return false
  }
  const found: BareText[] = []
  const visit = (node: ts.Node): void => {
    let text: string | undefined
    let own: string | undefined
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = own = node.text
    else if (ts.isJsxText(node)) text = own = node.text.trim()
    else if (ts.isTemplateExpression(node)) {
      // Only the template's own text counts: a `${tr('…')}` inside it is translated already.
      text = node.getText(sf)
      own = node.head.text + node.templateSpans.map((s) => s.literal.text).join('')
    }
    if (text !== undefined && CHINESE.test(own!) && !translated(node) && !ignored(node)) {
      found.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text })
    }
    // A template's own spans are counted with it; the literals inside its `${…}` on their own.
    if (ts.isTemplateExpression(node)) node.templateSpans.forEach((s) => visit(s.expression))
    else ts.forEachChild(node, visit)
  }
  visit(sf)
  return found
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : /\.tsx?$/.test(name) ? [full] : []
  })
}

const AREAS = ['runtime', 'pages', 'components', 'lowcode', 'shell', 'features'] as const
type Area = (typeof AREAS)[number] | 'other'

function scanClient(): { files: number; byArea: Record<Area, string[]> } {
  const files = filesUnder(clientRoot)
  const byArea = Object.fromEntries([...AREAS, 'other'].map((a) => [a, [] as string[]])) as Record<Area, string[]>
  for (const file of files) {
    const rel = path.relative(clientRoot, file).split(path.sep).join('/')
    if (rel in EXEMPT_FILES) continue
    const top = rel.split('/')[0]
    const area: Area = (AREAS as readonly string[]).includes(top) ? (top as Area) : 'other'
    for (const t of bareTexts(rel, readFileSync(file, 'utf8'))) byArea[area].push(`${rel}:${t.line} ${t.text}`)
  }
  return { files: files.length, byArea }
}

/** Every area is translated: a new bare text fails the test (wrap it in tr(), or mark data with `// i18n-ignore`). */
const BUDGETS: Record<Area, number> = {
  runtime: 0,
  pages: 0,
  components: 0,
  lowcode: 0,
  shell: 0,
  features: 0,
  other: 0,
}

describe('client text coverage', () => {
  it('the scanner counts bare texts and skips translated, typed, ignored and commented ones', () => {
    const source = [
      "// 注释里的中文",
      "/** 文档注释 */",
      "type Status = '审核' | '草稿'",
      "const a = tr('新增')",
      "const b = tr(`共${n}条`)",
      "const c = t('menu.more') + '更多'",
      "const d = /^[\\u4e00]+号$/ // i18n-ignore",
      "const e = ok ? '保存成功' : tr('失败')",
      "const f = `第${row}行：${tr('商品')}不能为空`",
      "const g = <Button title=\"删除\">{tr('删除')} 确定</Button>",
      "const COLUMNS = [{ title: term('商品编号') }, { title: '仓库' }]",
      "const h = `${tr('例如')} ^1\\d{10}$`",
    ].join('\n')
    expect(bareTexts('snippet.tsx', source)).toEqual([
      { line: 6, text: '更多' },
      { line: 8, text: '保存成功' },
      { line: 9, text: "`第${row}行：${tr('商品')}不能为空`" },
      { line: 10, text: '删除' },
      { line: 10, text: '确定' },
      { line: 11, text: '仓库' },
    ])
  })

  it('untranslated client texts stay within each directory budget', () => {
    const { files, byArea } = scanClient()
    // Guard against a scan that silently reads nothing.
    expect(files).toBeGreaterThan(200)
    const counts = Object.fromEntries(Object.entries(byArea).map(([a, list]) => [a, list.length])) as Record<Area, number>
    for (const [area, list] of Object.entries(byArea))
      if (list.length) console.info(`bare client texts in ${area} (${list.length}):\n${list.join('\n')}`)
    for (const area of [...AREAS, 'other'] as Area[]) expect(counts[area], area).toBeLessThanOrEqual(BUDGETS[area])
  })
})

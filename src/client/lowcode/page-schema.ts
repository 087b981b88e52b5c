
import { tr } from '../i18n/use-tr.js'/**
 * A custom page as its componentConfig script returns it (run in the sandbox): plain JSON, rows of
 * 24-column grids holding blocks. The runtime renders the blocks itself, so a page can show custom
 * lists, custom forms, charts and text, but never arbitrary React or HTML from users.
 *
 * ```js
 * return { title: '销售概览', rows: [
 *   { cols: [{ span: 12, blocks: [{ kind: 'chart', chartType: 'bar', categories: ['一月', '二月'], series: [{ name: '销售额', data: [120, 200] }] }] },
 *            { span: 12, blocks: [{ kind: 'text', format: 'markdown', content: '## 说明\n- 数据每日更新' }] }] },
 *   { cols: [{ span: 24, blocks: [{ kind: 'list', listId: '…' }] }] },
 * ] }
 * ```
 */
export interface PageSchema {
  title?: string
  rows: PageRow[]
}

export interface PageRow {
  /** Space between columns in px (default 16). */
  gutter?: number
  cols: PageCol[]
}

export interface PageCol {
  /** Width in 24ths (default 24). */
  span?: number
  blocks: PageBlock[]
}

export type PageBlock = ListBlock | FormBlock | ChartBlock | TextBlock

interface BlockBase {
  /** Card title above the block. */
  title?: string
}

/** A custom list by id. */
export interface ListBlock extends BlockBase {
  kind: 'list'
  listId: string
}

/** A custom form by id, shown inline. */
export interface FormBlock extends BlockBase {
  kind: 'form'
  formId: string
  requestParam?: Record<string, unknown>
}

/** A chart of numbers: bars or lines over categories, or a pie of the first series. */
export interface ChartBlock extends BlockBase {
  kind: 'chart'
  chartType: 'bar' | 'line' | 'pie' | 'statistic'
  categories?: string[]
  series: { name: string; data: number[] }[]
}

/** Text: plain, or a markdown subset (headings, lists, bold, paragraphs) rendered without HTML. */
export interface TextBlock extends BlockBase {
  kind: 'text'
  format?: 'plain' | 'markdown'
  content: string
}

export type PageSchemaCheck = { ok: true; schema: PageSchema } | { ok: false; errors: string[] }

const MAX_BLOCKS = 50
const MAX_TEXT = 20000
const MAX_POINTS = 1000
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)
const isId = (v: unknown) => typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v)

function checkBlock(b: unknown, path: string, errors: string[]): PageBlock | undefined {
  if (!isObject(b)) return void errors.push(tr(`${path}：必须是对象`))
  if (b.title !== undefined && typeof b.title !== 'string') errors.push(tr(`${path}.title：必须是文本`))
  const title = typeof b.title === 'string' ? b.title.slice(0, 100) : undefined
  switch (b.kind) {
    case 'list':
      if (!isId(b.listId)) return void errors.push(tr(`${path}.listId：请填写自定义列表ID`))
      return { kind: 'list', listId: b.listId as string, title }
    case 'form':
      if (!isId(b.formId)) return void errors.push(tr(`${path}.formId：请填写自定义表单ID`))
      if (b.requestParam !== undefined && !isObject(b.requestParam)) return void errors.push(tr(`${path}.requestParam：必须是对象`))
      return { kind: 'form', formId: b.formId as string, requestParam: b.requestParam as Record<string, unknown> | undefined, title }
    case 'chart': {
      if (!['bar', 'line', 'pie', 'statistic'].includes(String(b.chartType))) return void errors.push(tr(`${path}.chartType：只能是 bar、line、pie 或 statistic`))
      if (b.categories !== undefined && !(Array.isArray(b.categories) && b.categories.every((c) => typeof c === 'string')))
        return void errors.push(tr(`${path}.categories：必须是文本数组`))
      if (!Array.isArray(b.series) || !b.series.length) return void errors.push(tr(`${path}.series：至少一组数据`))
      const series: ChartBlock['series'] = []
      for (const [i, s] of b.series.entries()) {
        if (!isObject(s) || typeof s.name !== 'string' || !Array.isArray(s.data) || !s.data.every((n) => typeof n === 'number' && Number.isFinite(n)))
          return void errors.push(tr(`${path}.series[${i}]：需要 name 与数字数组 data`))
        if (s.data.length > MAX_POINTS) return void errors.push(tr(`${path}.series[${i}]：数据点不能超过${MAX_POINTS}个`))
        series.push({ name: s.name, data: s.data as number[] })
      }
      return { kind: 'chart', chartType: b.chartType as ChartBlock['chartType'], categories: b.categories as string[] | undefined, series, title }
    }
    case 'text':
      if (typeof b.content !== 'string') return void errors.push(tr(`${path}.content：必须是文本`))
      if (b.content.length > MAX_TEXT) return void errors.push(tr(`${path}.content：不能超过${MAX_TEXT}个字符`))
      if (b.format !== undefined && b.format !== 'plain' && b.format !== 'markdown') return void errors.push(tr(`${path}.format：只能是 plain 或 markdown`))
      return { kind: 'text', format: (b.format as TextBlock['format']) ?? 'plain', content: b.content, title }
    default:
      return void errors.push(tr(`${path}.kind：只能是 list、form、chart 或 text`))
  }
}

/** Checks what a page script returned and answers a clean copy (unknown members dropped). */
export function checkPageSchema(value: unknown): PageSchemaCheck {
  const errors: string[] = []
  if (!isObject(value)) return { ok: false, errors: [tr('页面脚本必须返回对象')] }
  if (!Array.isArray(value.rows)) return { ok: false, errors: [tr('rows：必须是数组')] }
  let blocks = 0
  const rows: PageRow[] = []
  value.rows.forEach((r, ri) => {
    const rp = `rows[${ri}]`
    if (!isObject(r) || !Array.isArray(r.cols)) return void errors.push(tr(`${rp}.cols：必须是数组`))
    const gutter = typeof r.gutter === 'number' && r.gutter >= 0 && r.gutter <= 64 ? r.gutter : undefined
    const cols: PageCol[] = []
    r.cols.forEach((c, ci) => {
      const cp = `${rp}.cols[${ci}]`
      if (!isObject(c) || !Array.isArray(c.blocks)) return void errors.push(tr(`${cp}.blocks：必须是数组`))
      if (c.span !== undefined && !(Number.isInteger(c.span) && (c.span as number) >= 1 && (c.span as number) <= 24)) errors.push(tr(`${cp}.span：必须是1到24的整数`))
      const out: PageBlock[] = []
      c.blocks.forEach((b, bi) => {
        if (++blocks > MAX_BLOCKS) return void (blocks === MAX_BLOCKS + 1 && errors.push(tr(`区块数量不能超过${MAX_BLOCKS}个`)))
        const block = checkBlock(b, `${cp}.blocks[${bi}]`, errors)
        if (block) out.push(block)
      })
      cols.push({ span: typeof c.span === 'number' ? c.span : undefined, blocks: out })
    })
    rows.push({ gutter, cols })
  })
  if (value.title !== undefined && typeof value.title !== 'string') errors.push(tr('title：必须是文本'))
  if (errors.length) return { ok: false, errors }
  return { ok: true, schema: { title: typeof value.title === 'string' ? value.title : undefined, rows } }
}

export const EXAMPLE_PAGE_SCRIPT = `// 返回页面结构（JSON）：rows → cols → blocks（list / form / chart / text）
return {
  title: '示例页面',
  rows: [
    { cols: [
      { span: 12, blocks: [{ kind: 'text', format: 'markdown', content: '## 说明\\n- 本页面由脚本生成' }] },
      { span: 12, blocks: [{ kind: 'chart', chartType: 'bar', title: '销售额', categories: ['一月', '二月'], series: [{ name: '销售额', data: [120, 200] }] }] },
    ] },
  ],
}` // i18n-ignore (a sample script the admin edits; its texts are the sample page's data)

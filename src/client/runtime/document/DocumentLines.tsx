import { useMemo, useRef, useState } from 'react'
import { AutoComplete, Button, Input, InputNumber, Select, Space, Table, Tag } from 'antd'
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import type { ColumnType } from 'antd/es/table'
import { call } from '../../api/call.js'
import { declaredCalls } from '../../../shared/contracts/document-calls.js'
import type { Meta } from '../../api/meta.js'
import PickerDialog from '../picker/PickerDialog.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { hasProductLines, lineSubjectOf, type DocumentSection } from '../../../shared/metadata/document-model.js'
import { refCodeProperty, refLabelProperty } from '../../../shared/metadata/entity-model.js'
import type { EntityRow } from '../entity-api.js'
import { useFeedback } from '../../components/feedback.js'
import { SEQ_WIDTH } from '../list-columns.js'
import { enumOptions } from '../query-params.js'
import { documentTotals, isGiftLine } from '../../../shared/metadata/document-totals.js'
import { lineColumnModels, referenceColumns, type LineColumnModel } from './line-columns.js'
import { discountFieldsOf, keepDiscount, productDefaults } from '../../../shared/metadata/line-discount.js'
import { giftLine } from './source-links.js'
import CandidateDialog from './CandidateDialog.js'
import { addOrIncrement, quickMatch } from './quick-add.js'
import { decimalText } from '../../../shared/metadata/decimal-text.js'
import { useTr } from '../../i18n/use-tr.js'
import { useLineStock } from './line-stock.js'
import { fitColumns } from '../column-fit.js'
import { useBoxWidth } from '../use-box-width.js'

/** A line in the table: wire values plus a key of its own (lines have no id until saved). */
export type LineRow = Record<string, unknown> & { __key: string }

let keys = 0
export const newLineKey = () => `line-${++keys}`

export interface DocumentLinesProps {
  meta: Meta
  lines: EntityModel
  section: DocumentSection
  rows: LineRow[]
  onChange: (rows: LineRow[]) => void
  readOnly: boolean
  /** Field linking a line to its source line: such lines keep the source's price. */
  linkField?: string
  /** `GET …/product/search?scId&condition` of this document's module, when it has one. */
  searchUrl?: string
  scId?: string
  /** Each line shows its product's current stock in `scId` (the document declares `lineStock` and is entered or awaits approval). */
  showStock?: boolean
  /** Line fields not shown (e.g. the counts of other take statuses on a pre-take sheet). */
  hidden?: ReadonlySet<string>
  /** A document linked to its source: lines added here are gifts (price 0, not typed), as the server requires. */
  giftsOnly?: boolean
  /** Columns shown after the product's (values the loader put on the lines, e.g. a plan's system quantity). */
  extraColumns?: readonly { key: string; title: string }[]
  /** The header's current values (lines picked by a header value, candidates of the header's party and dates). */
  headerValues?: () => Record<string, unknown>
  /** Label of a header field (for “请选择…” before candidates can be offered). */
  headerLabel?: (name: string) => string
}

/** Where a picked record's code goes on the line: itemId → itemCode (as the server answers it). */

/** The line field defaults of a new line (tax rate 0…). */
export function withDefaults(row: LineRow, lines: EntityModel): LineRow {
  for (const f of lines.fields) if (!f.readOnly && f.default !== undefined && f.default !== null && row[f.name] === undefined) row[f.name] = f.default
  return row
}

/**
 * What a chosen product puts on a new line: its columns, what the line fields declare they take from
 * the product (`defaultFrom`: prices, tax rate), then the line fields' own defaults (discount 100…).
 */
export function lineFromProduct(product: Record<string, unknown>, lines: EntityModel): LineRow {
  const row: LineRow = {
    __key: newLineKey(),
    productId: product.productId ?? product.id,
    productCode: product.productCode ?? product.code,
    productName: product.productName ?? product.name,
    skuCode: product.skuCode,
    unit: product.unit,
    spec: product.spec,
    ...productDefaults(lines, product),
  }
  return withDefaults(row, lines)
}

/**
 * The line table of a document: what each line refers to (product columns, an item's name, a
 * document's number), then the line entity's fields as editable cells (quantity, price, tax rate,
 * amount, description; the gift flag follows the price), a 删除 link per line, and 添加{lines.subject}:
 * the product picker with a quick search by code, name or SKU, the picker of `lines.pick`, or its
 * server candidates (CandidateDialog).
 */
export default function DocumentLines({ meta, lines, section, rows, onChange, readOnly, linkField, searchUrl, scId, showStock = false, hidden, giftsOnly, extraColumns, headerValues, headerLabel }: DocumentLinesProps) {
  const tr = useTr()
  const models = useMemo(() => lineColumnModels(lines, section, { readOnly }).filter((m) => !hidden?.has(m.key)), [lines, section, readOnly, hidden])
  const [picking, setPicking] = useState<string | undefined>()
  const [candidateQuery, setCandidateQuery] = useState<Record<string, unknown> | undefined>()
  const [searchText, setSearchText] = useState('')
  const [found, setFound] = useState<Record<string, unknown>[]>([])
  const { message } = useFeedback()
  const products = hasProductLines(section)
  const pick = section.lines.pick
  const subject = lineSubjectOf(section)
  const totals = section.totals
  const picker = picking ? meta.pickerEntity(picking) : undefined
  const taken = useMemo(() => new Set(pick ? rows.map((r) => String(r[pick.field])) : []), [rows, pick])
  const [box, width] = useBoxWidth()
  const stockShown = showStock && products
  const stock = useLineStock(rows, scId, stockShown)

  const discount = discountFieldsOf(section)
  // Price, original price and discount rate follow each other as the clerk types (line-discount.ts).
  const update = (key: string, name: string, value: unknown) =>
    onChange(rows.map((r) => (r.__key === key ? (discount ? (keepDiscount({ ...r, [name]: value }, name, discount) as LineRow) : { ...r, [name]: value }) : r)))
  const remove = (key: string) => onChange(rows.filter((r) => r.__key !== key))
  const add = (chosen: Record<string, unknown>[]) => {
    if (products) return onChange([...rows, ...chosen.map((p) => giftLine(lineFromProduct(p, lines), giftsOnly ? totals?.price : undefined))])
    const field = pick!.field
    const fresh = chosen.filter((c) => !taken.has(String(pick!.candidates ? c[field] : c.id)))
    onChange([
      ...rows,
      ...fresh.map((c) =>
        withDefaults(
          pick!.candidates ? { ...c, __key: newLineKey() } : { __key: newLineKey(), [field]: c.id, [refLabelProperty(field)]: c.name ?? c.code, [refCodeProperty(field)]: c.code },
          lines,
        ),
      ),
    ])
  }

  /** 添加…: the product picker, the picker the header's value chooses, or the candidates (of the header's party, if it has one). */
  const open = () => {
    const values = headerValues?.() ?? {}
    if (products) return setPicking('product')
    if (pick?.candidates) {
      const c = pick.candidates
      if (c.party && !values[c.party]) return void message.error(tr(`请选择${headerLabel?.(c.party) ?? ''}`))
      return setCandidateQuery({
        ...(c.party ? { [c.party]: values[c.party] } : {}),
        ...(c.from && values[c.from] ? { startTime: values[c.from] } : {}),
        ...(c.to && values[c.to] ? { endTime: values[c.to] } : {}),
      })
    }
    const kind = pick?.byHeader ? pick.byHeader.pickers[String(values[pick.byHeader.field] ?? '')] : pick?.picker
    if (!kind) return void message.error(tr(`请选择${pick?.byHeader ? (headerLabel?.(pick.byHeader.field) ?? '') : ''}`))
    setPicking(kind)
  }

  const typedText = useRef('')
  // The clerk chose an entry with the arrow keys: Enter is the list's, not the quick add's.
  const navigated = useRef(false)
  const lookUp = async (text: string): Promise<Record<string, unknown>[]> => {
    if (!searchUrl || !text.trim()) return []
    try {
      return await call(declaredCalls.productSearch(searchUrl), { scId, condition: text.trim() }, { hideError: true })
    } catch {
      return []
    }
  }
  const search = async (text: string) => {
    setSearchText(text)
    navigated.current = false
    const answer = await lookUp(text)
    // An answer to an older text (a scanner types fast) does not replace the newer one's.
    if (typedText.current === text) setFound(answer)
  }
  /** The chosen product once more: its hand-added line of the same kind gets one more, else a new line at 1. */
  const quickAdd = (product: Record<string, unknown>) => {
    const line = giftLine(lineFromProduct(product, lines), giftsOnly ? totals?.price : undefined)
    const quantity = totals?.num
    if (!products || !quantity) return add([product])
    const gift = (r: Record<string, unknown>) => (totals ? isGiftLine(r, totals) : false)
    onChange(addOrIncrement(rows, line, quantity, (r) => !(linkField && r[linkField]) && gift(r) === gift(line)))
  }
  /** Enter in the quick-add box (a barcode scanner ends with it): the single match is added, the box is cleared and keeps the focus. */
  const enter = async (text: string) => {
    const match = quickMatch(await lookUp(text), text)
    if (!match) return
    quickAdd(match)
    typedText.current = ''
    setSearchText('')
    setFound([])
  }

  const cell = (m: LineColumnModel, row: LineRow, index: number) => {
    const value = row[m.key]
    const label = tr(`第${index + 1}行${m.title}`)
    if (m.kind === 'flag') {
      const gift = totals && m.key === totals.gift ? isGiftLine(row, totals) : value === true
      return gift ? <Tag color="orange">{tr('是')}</Tag> : tr('否')
    }
    // A line from the source keeps the source's price (and the original price and rate it came with); a line added to a linked document is a gift.
    const priced = m.key === totals?.price || (discount && (m.key === discount.original || m.key === discount.rate))
    const locked = priced && linkField && (row[linkField] || giftsOnly)
    if (!m.editable || locked) {
      if (m.kind === 'enum' && m.field?.enum) return meta.enums.label(m.field.enum, value) ?? String(value ?? '')
      if (m.enum) return meta.enums.label(m.enum, value) ?? String(value ?? '')
      if (value === null || value === undefined || value === '') return ''
      return m.kind === 'decimal' && m.field ? decimalText(m.field, value) : String(value)
    }
    switch (m.kind) {
      case 'integer':
        return (
          <InputNumber aria-label={label} value={value as number | undefined} min={0} step={1} style={{ width: '100%' }}
            onChange={(v) => update(row.__key, m.key, v ?? undefined)} />
        )
      case 'decimal':
        return (
          <InputNumber<string> aria-label={label} stringMode precision={m.field?.scale ?? 2} min={m.field?.min !== undefined ? String(m.field.min) : undefined} value={value as string | undefined}
            style={{ width: '100%' }} onChange={(v) => update(row.__key, m.key, v ?? undefined)} />
        )
      case 'enum':
        return (
          <Select aria-label={label} value={value as string | number | undefined} style={{ width: '100%' }}
            options={m.field?.enum ? enumOptions(m.field.enum, meta.enums) : []} onChange={(v) => update(row.__key, m.key, v)} />
        )
      default:
        return <Input aria-label={label} value={(value as string | undefined) ?? ''} maxLength={m.field?.maxLength} onChange={(e) => update(row.__key, m.key, e.target.value)} />
    }
  }

  const columns: ColumnType<LineRow>[] = [
    { key: '__seq', title: tr('序号'), width: SEQ_WIDTH, align: 'center', fixed: 'left', render: (_v, _r, i) => i + 1 },
    ...models.map(
      (m): ColumnType<LineRow> => ({
        key: m.key,
        title: tr(m.title),
        width: m.width,
        align: m.kind === 'number' || (m.kind === 'decimal' && !m.editable) ? 'right' : undefined,
        render: (_v, row, i) => cell(m, row, i),
      }),
    ),
  ]
  // Each line's amount (数量 × 价格) beside its price, by the function that makes the document's total.
  const priceAt = totals?.price ? columns.findIndex((c) => c.key === totals.price) : -1
  if (totals && priceAt >= 0)
    columns.splice(priceAt + 1, 0, {
      key: '__amount',
      title: tr('金额'),
      width: 110,
      align: 'right',
      render: (_v, row) => <span data-line-amount>{documentTotals([row], totals).amount}</span>,
    })
  // The warehouse's stock right after what the line refers to, before what is typed.
  const afterReference = 1 + referenceColumns(lines, section).length
  if (stockShown)
    columns.splice(afterReference, 0, {
      key: '__stock',
      title: tr('可用库存'),
      width: 100,
      align: 'right',
      render: (_v, row) => <span data-line-stock>{stock?.get(String(row.productId)) ?? ''}</span>,
    })
  if (extraColumns?.length)
    columns.splice(afterReference, 0, ...extraColumns.map((c): ColumnType<LineRow> => ({
      key: c.key,
      title: tr(c.title),
      width: 110,
      align: 'right',
      render: (_v, row) => (row[c.key] === null || row[c.key] === undefined ? '' : String(row[c.key])),
    })))
  if (!readOnly)
    columns.push({
      key: '__actions',
      title: tr('操作'),
      width: 80,
      fixed: 'right',
      render: (_v, row, i) => (
        <Button type="link" size="small" danger aria-label={tr(`删除第${i + 1}行`)} icon={<DeleteOutlined aria-hidden />} onClick={() => remove(row.__key)}>
          {tr('删除')}
        </Button>
      ),
    })

  // Widths as declared, fitted to the card: what only shows gives way before an input does, and a table
  // that still does not fit keeps 删除 on the left, where at rest it covers no input (column-fit.ts).
  const typed = new Set(models.filter((m) => m.editable).map((m) => m.key))
  const fitted = fitColumns(columns, width - 2, (c) => !c.fixed && !typed.has(String(c.key)))

  return (
    <div className="document-lines" ref={box}>
      {!readOnly && (
        <Space style={{ marginBottom: 8 }} wrap>
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={open}>
            {tr(`添加${subject}`)}
          </Button>
          {products && searchUrl && (
            <AutoComplete
              aria-label={tr('快速添加商品')}
              style={{ width: 320 }}
              value={searchText}
              placeholder={tr('输入商品编号、名称或SKU编号')}
              defaultActiveFirstOption={false}
              options={found.map((p) => ({ value: String(p.productId), label: `${String(p.productCode ?? '')} ${String(p.productName ?? '')}` }))}
              onSearch={(t) => {
                typedText.current = t
                void search(t)
              }}
              onKeyDown={(e) => {
                if (e.key === 'ArrowDown' || e.key === 'ArrowUp') navigated.current = true
                else if (e.key === 'Enter' && !navigated.current && !e.nativeEvent.isComposing) void enter((e.target as HTMLInputElement).value)
              }}
              onSelect={(id: string) => {
                const product = found.find((p) => String(p.productId) === id)
                if (product) quickAdd(product)
                typedText.current = ''
                navigated.current = false
                setSearchText('')
                setFound([])
              }}
            />
          )}
        </Space>
      )}
      <Table<LineRow>
        rowKey="__key"
        size="small"
        bordered
        columns={fitted.columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: fitted.x }}
        locale={{ emptyText: tr(`暂无${subject}`) }}
      />
      {picker && (
        <PickerDialog
          meta={meta}
          entity={picker}
          open
          multiple
          warehouse={picking === 'product' && section.pickerStock ? scId : undefined}
          value={[] as EntityRow[]}
          onCancel={() => setPicking(undefined)}
          onClear={() => setPicking(undefined)}
          onConfirm={(chosen) => {
            setPicking(undefined)
            add(chosen)
          }}
        />
      )}
      {pick?.candidates && candidateQuery && (
        <CandidateDialog
          meta={meta}
          candidates={pick.candidates}
          keyField={pick.field}
          query={candidateQuery}
          taken={taken}
          open
          onCancel={() => setCandidateQuery(undefined)}
          onConfirm={(chosen) => {
            setCandidateQuery(undefined)
            add(chosen)
          }}
        />
      )}
    </div>
  )
}

import { useEffect, useRef, useState, type DragEvent } from 'react'
import { Button, Checkbox, Input, InputNumber, Modal, Select, Space, Typography, Upload } from 'antd'
import type { Designer as PdfmeDesigner } from '@pdfme/ui'
import fontUrl from '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf?url'
import { call } from '../../api/call.js'
import { useFeedback } from '../../components/feedback.js'
import { useTr } from '../../i18n/use-tr.js'
import { print, type PrintKind } from '../../../shared/contracts/print.js'
import { linesTableSchema, textSchema } from '../../../shared/print/builtin-template.js'
import { printPlugins } from '../../../shared/print/print-plugins.js'
import { PAPER_LABELS, PAPER_PRESETS, type PaperPreset } from '../../../shared/print/paper.js'
import { LINES_TABLE, type PrintSchema, type PrintTemplateContent } from '../../../shared/print/print-template.js'

/** What the designer edits: a stored template (id and the version it started from) or a new one. */
export interface DesignerInput {
  id?: string
  version?: number
  name: string
  content: PrintTemplateContent
}

export interface PrintDesignerProps {
  kind: PrintKind
  input: DesignerInput
  onClose: () => void
  onSaved: () => void
}

const BACKGROUND = '__background'
const FONT = 'NotoSansSC'

/** The pdfme template of a layout: the paper with its margins as guides, the form's image under everything. */
function toPdfme(content: PrintTemplateContent) {
  const schemas: PrintSchema[] = content.background
    ? [{ name: BACKGROUND, type: 'image', readOnly: true, content: content.background, position: { x: 0, y: 0 }, width: content.paper.width, height: content.paper.height, opacity: 0.5 }, ...content.schemas]
    : content.schemas
  return { basePdf: { width: content.paper.width, height: content.paper.height, padding: content.margins }, schemas: [schemas] }
}

/**
 * The print template designer (系统管理 › 打印模板): pdfme's Designer for placing and sizing, and beside it
 * the kind's fields, the line table and the number's barcodes to drag onto the page (labels from the
 * kind's file in the reader's language), the paper, margins and the pre-printed form to align on.
 * pdfme, its React and the Chinese font load only when a designer opens.
 */
export default function PrintDesigner({ kind, input, onClose, onSaved }: PrintDesignerProps) {
  const tr = useTr()
  const { message } = useFeedback()
  const box = useRef<HTMLDivElement>(null)
  const designer = useRef<PdfmeDesigner | null>(null)
  const [content, setContent] = useState(input.content)
  const [name, setName] = useState(input.name)
  const [ready, setReady] = useState(false)
  const [saving, setSaving] = useState(false)
  const bindable = new Set([...kind.fields, ...kind.specials].map((f) => f.name))
  const columnLabels = new Map(kind.lineColumns.map((c) => [c.name, c.label]))

  useEffect(() => {
    let gone = false
    void (async () => {
      const [{ Designer }, plugins, font] = await Promise.all([import('@pdfme/ui'), import('@pdfme/schemas'), fetch(fontUrl).then((r) => r.arrayBuffer())])
      if (gone || !box.current) return
      designer.current = new Designer({
        domContainer: box.current,
        template: toPdfme(input.content) as never,
        options: { font: { [FONT]: { data: font, fallback: true } }, lang: 'zh' } as never,
        plugins: printPlugins(plugins) as never,
      })
      setReady(true)
    })()
    return () => {
      gone = true
      designer.current?.destroy()
    }
  }, [input.content])

  /** The elements as placed in the designer; a text bound to nothing prints what it says. */
  const placed = (): PrintSchema[] => {
    const schemas = ((designer.current?.getTemplate().schemas[0] ?? []) as PrintSchema[]).filter((s) => s.name !== BACKGROUND)
    return schemas.map((s) => (s.type === 'text' && !s.readOnly && !bindable.has(s.name) ? { ...s, readOnly: true, content: s.content ?? '' } : s))
  }
  const relayout = (next: PrintTemplateContent) => {
    setContent(next)
    designer.current?.updateTemplate(toPdfme(next) as never)
  }
  const withSchemas = (schemas: PrintSchema[]) => ({ ...content, schemas })
  const uniqueName = (base: string, taken: PrintSchema[]) => {
    let n = base
    for (let i = 2; taken.some((s) => s.name === n); i++) n = `${base}${i}`
    return n
  }

  /** Where a drop lands on the page, in millimetres (the page is the designer's element of the paper's proportions). */
  const dropPoint = (e: DragEvent): { x: number; y: number } => {
    const ratio = content.paper.height / content.paper.width
    const page = [...(box.current?.querySelectorAll('div') ?? [])].find((el) => {
      const r = el.getBoundingClientRect()
      return r.width > 100 && Math.abs(r.height / r.width - ratio) < 0.01
    })
    const r = (page ?? box.current!).getBoundingClientRect()
    const mm = content.paper.width / r.width
    const clamp = (v: number, max: number) => Math.round(Math.min(Math.max(v, 0), max) * 10) / 10
    return { x: clamp((e.clientX - r.left) * mm, content.paper.width - 10), y: clamp((e.clientY - r.top) * mm, content.paper.height - 6) }
  }
  const drop = (e: DragEvent) => {
    e.preventDefault()
    const what = e.dataTransfer.getData('application/x-print-item')
    if (!what || !designer.current) return
    const { x, y } = dropPoint(e)
    const schemas = placed()
    const [type, field] = what.split(':')
    const room = content.paper.width - x - content.margins[1]
    if (type === 'field') {
      const label = [...kind.fields, ...kind.specials].find((f) => f.name === field)?.label ?? field
      schemas.push(textSchema(uniqueName(`${field}Label`, schemas), x, y, 26, { readOnly: true, content: `${label}：` }))
      if (!schemas.some((s) => s.name === field)) schemas.push(textSchema(field, x + 26, y, Math.max(20, Math.min(60, room - 26))))
    } else if (type === 'table') {
      const existing = schemas.findIndex((s) => s.name === LINES_TABLE)
      if (existing >= 0) schemas.splice(existing, 1)
      const columns = content.lineColumns.length ? content.lineColumns : kind.lineColumns.slice(0, 6).map((c) => c.name)
      schemas.push(linesTableSchema(columns, columnLabels, x, y, Math.max(40, room), Math.max(20, content.paper.height - y - content.margins[2] - 14)))
      relayout({ ...withSchemas(schemas), lineColumns: columns })
      return
    } else if (type === 'qrcode' || type === 'code128') {
      const size = type === 'qrcode' ? { width: 14, height: 14 } : { width: 45, height: 10 }
      schemas.push({ name: uniqueName(type === 'qrcode' ? 'codeQr' : 'codeBarcode', schemas), type, position: { x, y }, ...size, content: '', backgroundColor: '#ffffff', barColor: '#000000' })
    }
    relayout(withSchemas(schemas))
  }

  const setColumns = (columns: string[]) => {
    const schemas = placed().map((s) => (s.name === LINES_TABLE ? { ...linesTableSchema(columns, columnLabels, s.position.x, s.position.y, s.width, s.height) } : s))
    relayout({ ...withSchemas(schemas), lineColumns: columns })
  }
  const setPaper = (preset: PaperPreset, width?: number, height?: number) => {
    const size = preset === 'custom' ? { width: width ?? content.paper.width, height: height ?? content.paper.height } : PAPER_PRESETS[preset]
    relayout({ ...withSchemas(placed()), paper: { preset, width: size.width, height: size.height } })
  }
  const setMargin = (i: number, v: number | null) => {
    const margins = [...content.margins] as PrintTemplateContent['margins']
    margins[i] = v ?? 0
    relayout({ ...withSchemas(placed()), margins })
  }
  const setBackground = (file: File) => {
    const reader = new FileReader()
    reader.onload = () => relayout({ ...withSchemas(placed()), background: String(reader.result) })
    reader.readAsDataURL(file)
    return false
  }

  const save = async () => {
    const next: PrintTemplateContent = { ...content, schemas: placed() }
    setSaving(true)
    try {
      if (input.id) await call(print.modify, { id: input.id, name, version: input.version ?? 1, content: next })
      else await call(print.create, { kind: kind.kind, name, content: next })
      message.success(tr('保存成功'))
      onSaved()
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setSaving(false)
    }
  }

  const item = (key: string, label: string) => (
    <div
      key={key}
      className="print-designer-item"
      draggable
      data-item={key}
      onDragStart={(e) => e.dataTransfer.setData('application/x-print-item', key)}
      style={{ padding: '2px 6px', margin: '2px 0', border: '1px dashed #bbb', cursor: 'grab', background: '#fafafa' }}
    >
      {label}
    </div>
  )

  return (
    <Modal
      open
      title={`${tr('打印模板')} · ${kind.label}`}
      width="96vw"
      style={{ top: 12 }}
      onCancel={onClose}
      maskClosable={false}
      footer={[
        <Button key="close" onClick={onClose}>
          {tr('关闭')}
        </Button>,
        <Button key="save" type="primary" loading={saving} disabled={!ready} onClick={() => void save()}>
          {tr('保存')}
        </Button>,
      ]}
    >
      <div style={{ display: 'flex', gap: 12, height: '78vh' }}>
        <div className="print-designer-panel" style={{ width: 240, overflowY: 'auto', flex: 'none' }}>
          <Space direction="vertical" style={{ width: '100%' }}>
            <Input aria-label={tr('模板名称')} placeholder={tr('模板名称')} value={name} onChange={(e) => setName(e.target.value)} />
            <Select
              aria-label={tr('纸张')}
              style={{ width: '100%' }}
              value={content.paper.preset}
              onChange={(v: PaperPreset) => setPaper(v)}
              options={(Object.keys(PAPER_LABELS) as PaperPreset[]).map((p) => ({ value: p, label: tr(PAPER_LABELS[p]) }))}
            />
            {content.paper.preset === 'custom' && (
              <Space>
                <InputNumber aria-label={tr('宽')} min={20} max={1200} value={content.paper.width} onChange={(v) => setPaper('custom', v ?? undefined)} addonAfter="mm" />
                <InputNumber aria-label={tr('高')} min={20} max={1200} value={content.paper.height} onChange={(v) => setPaper('custom', undefined, v ?? undefined)} addonAfter="mm" />
              </Space>
            )}
            <Typography.Text type="secondary">{tr('页边距')}（mm）</Typography.Text>
            <Space wrap>
              {[tr('上'), tr('右'), tr('下'), tr('左')].map((label, i) => (
                <InputNumber key={label} aria-label={label} size="small" min={0} max={50} style={{ width: 100 }} addonBefore={label} value={content.margins[i]} onChange={(v) => setMargin(i, v)} />
              ))}
            </Space>
            <Upload accept="image/png,image/jpeg" showUploadList={false} beforeUpload={setBackground}>
              <Button size="small">{tr('背景图片')}</Button>
            </Upload>
            {content.background && (
              <Checkbox checked={Boolean(content.printBackground)} onChange={(e) => setContent({ ...content, schemas: placed(), printBackground: e.target.checked })}>
                {tr('打印背景图片')}
              </Checkbox>
            )}
            <Typography.Text strong>{tr('拖到页面上')}</Typography.Text>
            {item('table:lines', tr('明细表'))}
            {item('code128:code', tr('单号条码'))}
            {item('qrcode:code', tr('单号二维码'))}
            {kind.specials.map((f) => item(`field:${f.name}`, f.label))}
            {kind.fields.map((f) => item(`field:${f.name}`, f.label))}
            <Typography.Text strong>{tr('明细表的列')}</Typography.Text>
            <Checkbox.Group
              style={{ display: 'flex', flexDirection: 'column' }}
              value={content.lineColumns}
              onChange={(v) => setColumns(kind.lineColumns.map((c) => c.name).filter((c) => (v as string[]).includes(c)))}
              options={kind.lineColumns.map((c) => ({ value: c.name, label: c.label }))}
            />
          </Space>
        </div>
        <div className="print-designer-canvas" style={{ flex: 1, minWidth: 0 }} onDragOver={(e) => e.preventDefault()} onDrop={drop}>
          <div ref={box} style={{ width: '100%', height: '100%' }} />
        </div>
      </div>
    </Modal>
  )
}

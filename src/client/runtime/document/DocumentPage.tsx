import { useEffect, useMemo, useRef, useState } from 'react'
import { term } from '../../i18n/use-tr.js'
import { Alert, App, Button, Card, Result, Space, Spin, Tag, Typography } from 'antd'
import Decimal from 'decimal.js'
import { createForm, onFieldInputValueChange, onFieldReact, onFieldValueChange, type Field } from '@formily/core'
import { Form } from '@formily/antd-v5'
import { useLocation, useNavigate } from 'react-router-dom'
import { call } from '../../api/call.js'
import { useMeta, type Meta } from '../../api/meta.js'
import { closeTab } from '../../app/tab-store.js'
import { useTabDirty } from '../../app/tab-dirty.js'
import { pickerFillEffects } from '../picker-fills.js'
import type { EntityModel } from '../../../shared/metadata/entity-model.js'
import { hasApproval, hasProductLines, lineSubjectOf, linesEntityName, type DocumentSection } from '../../../shared/metadata/document-model.js'
import { checkField } from '../../../shared/metadata/validate-record.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { SchemaField } from '../form-components.js'
import { buildFormSchema, formItems, FORM_DEFAULTS, type FormMode } from '../form-schema.js'
import { firstError, initialFormValues, toSubmitValues } from '../form-values.js'
import { rememberValue } from '../remembered-values.js'
import { useSession } from '../../app/session.js'
import { enumColor } from '../field-text.js'
import AgreedPayments, { type PaymentRow } from './AgreedPayments.js'
import DocumentLines, { newLineKey, withDefaults, type LineRow } from './DocumentLines.js'
import { MADE_FROM_PARAM, continuedDate, continuedDates, madeFrom, type MadeFrom } from './continuation.js'
import PrintButton from './PrintButton.js'
import OrderTimeline from './OrderTimeline.js'
import RefuseDialog from './RefuseDialog.js'
import { documentCallsOf, type DocumentRecord } from './document-api.js'
import { declaredCalls } from '../../../shared/contracts/document-calls.js'
import { singletonCalls } from '../../../shared/contracts/singleton-calls.js'
import { takeStock } from '../../../shared/contracts/stock.js'
import { documentsChanged } from './document-events.js'
import { isEditableStatus } from './document-status.js'
import { hasAgreedPayments, hiddenLineFields, lineVisibilityField, paymentDateRuleOf, productSearchUrl, warehouseFieldOf } from './document-features.js'
import type { DocumentRoute } from './document-routes.js'
import { documentSums, documentTotals, paymentsMatch, paymentsRemaining } from '../../../shared/metadata/document-totals.js'
import { sourceLinkField } from './line-columns.js'
import { lineFromSource, linesToSend, sourceLinkOf, type SourceLink } from './source-links.js'
import { lineFromPlan, mergePreCounts } from './take-sheet-lines.js'
import { lineFromProduct } from './DocumentLines.js'
import { useTr } from '../../i18n/use-tr.js'

export interface DocumentPageProps {
  entityName: string
  /** The list menu's path: where 返回 and a finished save go. */
  listPath: string
  route: DocumentRoute
}

/** One document's add / modify / approve / detail page, all from its entity file (header form, line table, totals). */
export default function DocumentPage(props: DocumentPageProps) {
  const meta = useMeta()
  const tr = useTr()
  if (!meta) return <Spin style={{ display: 'block', padding: 48 }} />
  const header = meta.entityOrUndefined(props.entityName)
  const lines = meta.entityOrUndefined(linesEntityName(props.entityName))
  if (!header?.file.document || !header.file.api || !lines)
    return <Result status="404" title="404" subTitle={tr(`未知的单据：${props.entityName}`)} />
  return (
    <FeedbackProvider>
      <DocumentLoader key={`${props.route.mode}:${props.route.id ?? ''}`} {...props} meta={meta} header={header} lines={lines} />
    </FeedbackProvider>
  )
}

interface Loaded {
  record?: DocumentRecord
  /** Whether this new document must follow a source document (configuration or route variant). */
  requireSource: boolean
  /** Settings a new document's date defaults count from (`defaultDays`), by entity name. */
  settings?: Record<string, Record<string, unknown>>
  /** What a new document made from another (`madeFrom`, opened by that one's row action) starts with. */
  made?: MadeFrom
}

/** The source a new document is made from: `?madeFrom=` of its add page (a row action's `make`; a pane's location has no state, and a reload keeps it). */
const madeFromId = (search: string): string | undefined => new URLSearchParams(search).get(MADE_FROM_PARAM) || undefined

/** The settings (singleton entities) a new document's header fields count their date defaults from. */
async function readDaySettings(meta: Meta, header: EntityModel): Promise<Record<string, Record<string, unknown>>> {
  const names = [...new Set(header.fields.flatMap((f) => (f.defaultDays ? [f.defaultDays.split('.')[0]] : [])))]
  const read = await Promise.all(
    names.map(async (name) => {
      const base = meta.entityOrUndefined(name)?.file.api?.base
      const values = base ? await call(singletonCalls(base).read, undefined, { hideError: true }).catch(() => ({})) : {}
      return [name, values as Record<string, unknown>] as const
    }),
  )
  return Object.fromEntries(read)
}

function DocumentLoader(props: DocumentPageProps & { meta: Meta; header: EntityModel; lines: EntityModel }) {
  const { header, route } = props
  const { meta } = props
  const link = useMemo(
    () => sourceLinkOf(header.file, new Set(header.fields.map((f) => f.name)), (name) => meta.entityOrUndefined(name)?.file),
    [header, meta],
  )
  const [loaded, setLoaded] = useState<Loaded | undefined>()
  const [failure, setFailure] = useState<string | undefined>()
  const sourceId = madeFromId(useLocation().search)
  useEffect(() => {
    let live = true
    const load = async (): Promise<Loaded> => {
      if (route.id) return { record: await call(documentCallsOf(header).get, { id: route.id }), requireSource: false }
      const [settings, made] = await Promise.all([readDaySettings(meta, header), sourceId ? madeFrom(meta, header, sourceId) : undefined])
      if (made) return { requireSource: false, settings, made }
      if (!link || route.require !== undefined) return { requireSource: Boolean(link && route.require), settings }
      if (!link.config) return { requireSource: false, settings }
      const config = await call(singletonCalls(link.config.base).read, undefined, { hideError: true }).catch(() => ({}) as Record<string, unknown>)
      return { requireSource: config[link.config.requireFlag] === true, settings }
    }
    load()
      .then((l) => live && setLoaded(l))
      .catch((e: unknown) => live && setFailure(e instanceof Error ? e.message : String(e)))
    return () => {
      live = false
    }
    // Loaded once per page (the page is keyed by mode and id).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  if (failure) return <Result status="warning" title={failure} />
  if (!loaded) return <Spin style={{ display: 'block', padding: 48 }} />
  return <DocumentEditor {...props} {...loaded} link={link} />
}

/** Values the loader put on the lines, shown beside the product: a plan's system quantity, what a return may still take back. */
function extraColumnsOf(headerName: string, rows: readonly LineRow[]) {
  const has = (key: string) => rows.some((r) => r[key] !== null && r[key] !== undefined)
  if (headerName === 'takeStockSheet' && has('stockNum')) return [{ key: 'stockNum', title: term('系统库存') }]
  if (has('remainNum')) return [{ key: 'remainNum', title: term('可退数量') }]
  return undefined
}

const formModeOf = (route: DocumentRoute): FormMode => (route.mode === 'add' ? 'add' : route.mode === 'modify' ? 'modify' : 'detail')

function DocumentEditor({
  meta,
  header,
  lines,
  route,
  listPath,
  record,
  requireSource,
  settings,
  made,
  link,
}: DocumentPageProps & Loaded & { meta: Meta; header: EntityModel; lines: EntityModel; link?: SourceLink }) {
  const tr = useTr()
  const { message, modal } = useFeedback()
  // This page's tab closes once the document is saved: its success message goes to the shell's holder.
  const app = App.useApp()
  const done = (text: string) => void (typeof app.message?.success === 'function' ? app.message : message).success(text)
  const navigate = useNavigate()
  const location = useLocation()
  const section = header.file.document as DocumentSection
  const subject = section.subject
  const mode = formModeOf(route)
  const readOnly = mode === 'detail'
  const calls = useMemo(() => documentCallsOf(header), [header])
  const linkField = sourceLinkField(section)
  const hasPayments = hasAgreedPayments(header.file) || Array.isArray(record?.payTypes)
  const status = record ? Number(record.status) : undefined
  const canApprove = route.mode === 'approve' && isEditableStatus(status)
  const paymentsEditable = hasPayments && (!readOnly || (canApprove && hasAgreedPayments(header.file)))

  // The source field is shown when the document must follow a source, or already does.
  const showSource = Boolean(link && (mode === 'add' ? requireSource : record?.[link.headerField]))
  const items = useMemo(
    () =>
      formItems(header, mode, meta.entityOrUndefined).filter(
        (i) => (readOnly || (!i.field.readOnly && !i.field.builtin)) && (i.field.name !== link?.headerField || showSource),
      ),
    [header, mode, meta, readOnly, link, showSource],
  )
  const schema = useMemo(() => buildFormSchema(header, items, meta.enums, mode, record), [header, items, meta, mode, record])
  const [rows, setRows] = useState<LineRow[]>(() =>
    made?.line ? [withDefaults({ ...made.line, __key: newLineKey() }, lines)] : (record?.details ?? []).map((l) => ({ ...l, __key: newLineKey() })),
  )
  const [savedPayments] = useState<PaymentRow[]>(() =>
    (record?.payTypes ?? []).map((p) => ({
      __key: newLineKey(),
      id: String(p.payTypeId ?? p.id),
      payTypeName: p.payTypeName as string | undefined,
      payAmount: p.payAmount as string | undefined,
      text: (p.text as string | null) ?? undefined,
    })),
  )
  const [payments, setPayments] = useState<PaymentRow[]>(savedPayments)
  const firstRows = useRef(rows).current
  const [busy, setBusy] = useState(false)
  const [refusing, setRefusing] = useState(false)

  // The loader of the chosen source document, called from the form's effect.
  const loadSource = useRef<(id: string | undefined) => void>(() => undefined)
  // The warehouse the product search reports stock for follows the header's 仓库 (a transfer's 转出仓库).
  const warehouseField = warehouseFieldOf(header.file)
  const [scId, setScId] = useState<string | undefined>(record?.[warehouseField] as string | undefined)
  const followWarehouse = useRef(setScId)
  // Whether the document follows a source now: its lines added by hand are then gifts.
  const [linked, setLinked] = useState(Boolean(link && record?.[link.headerField]))
  // The header value some line columns depend on (a pre-take sheet's 盘点状态).
  const visibilityField = lineVisibilityField(header.file)
  const [visibilityValue, setVisibilityValue] = useState<unknown>(visibilityField ? record?.[visibilityField] : undefined)
  const hidden = useMemo(
    () => hiddenLineFields(header.file, visibilityField ? { [visibilityField]: visibilityValue } : {}),
    [header.file, visibilityField, visibilityValue],
  )
  const paymentRule = header.byName.has('paymentDate') ? paymentDateRuleOf(header.file) : undefined
  const loadPaymentDate = useRef<(party: unknown, setDate: boolean) => void>(() => undefined)
  const loadPlan = useRef<(planId: string | undefined) => void>(() => undefined)
  const continueDate = useRef<(name: string, rule: Parameters<typeof continuedDate>[1], party: unknown) => void>(() => undefined)
  const loadPre = useRef<(preId: string | undefined) => void>(() => undefined)
  const userId = useSession().user?.id
  const form = useMemo(
    () =>
      createForm({
        initialValues: {
          ...initialFormValues(items, mode, record, userId, (ref) => {
            const [entity, field] = ref.split('.')
            return settings?.[entity]?.[field]
          }),
          ...made?.values,
        },
        readPretty: readOnly,
        effects: (f) => {
          if (!readOnly) pickerFillEffects(f, items, meta.pickerEntity)
          if (link) {
            onFieldInputValueChange(link.headerField, (field) => loadSource.current(field.value as string | undefined))
            // What the server copies from the source cannot be typed once a source is chosen.
            for (const name of link.lock)
              onFieldReact(name, (field) => {
                if (!readOnly) (field as Field).disabled = Boolean(field.query(link.headerField).value())
              })
          }
          onFieldValueChange(warehouseField, (field) => followWarehouse.current(field.value as string | undefined))
          if (visibilityField) onFieldValueChange(visibilityField, (field) => setVisibilityValue(field.value))
          if (mode === 'add')
            for (const { name, rule } of continuedDates(header))
              onFieldInputValueChange(rule.party, (field) => continueDate.current(name, rule, field.value))
          if (paymentRule && !readOnly) {
            onFieldInputValueChange(paymentRule.party, (field) => loadPaymentDate.current(field.value, true))
            onFieldValueChange(paymentRule.party, (field) => {
              // Opening a saved document: only whether the date may be changed.
              if (mode === 'modify' && field.value) loadPaymentDate.current(field.value, false)
            })
          }
          // Lines picked for one party or one kind of item do not fit another: choosing again starts over.
          const pick = section.lines.pick
          for (const name of [pick?.byHeader?.field, pick?.candidates?.party].filter((n): n is string => Boolean(n)))
            if (!readOnly) onFieldInputValueChange(name, () => setRows([]))
          if (header.name === 'takeStockSheet' && !readOnly) {
            onFieldInputValueChange('planId', (field) => loadPlan.current(field.value as string | undefined))
            onFieldInputValueChange('preSheetId', (field) => loadPre.current(field.value as string | undefined))
          }
        },
      }),
    [items, mode, record, readOnly, link, userId, meta, settings, made],
  )
  // Input not saved yet keeps its tab from closing (or from being opened afresh) without a question.
  const [typed, setTyped] = useState(false)
  useEffect(() => {
    if (readOnly) return
    form.addEffects('tab-dirty', () => onFieldInputValueChange('*', () => setTyped(true)))
    return () => form.removeEffects('tab-dirty')
  }, [form, readOnly])
  useTabDirty(!readOnly && (typed || rows !== firstRows || payments !== savedPayments))
  loadPaymentDate.current = (party, setDate) => {
    if (!paymentRule) return
    if (!party && paymentRule.party !== 'memberId') return
    call(declaredCalls.paymentDate(paymentRule), party ? { [paymentRule.party]: party } : undefined, { hideError: true })
      .then((terms) => {
        if (setDate) form.setValuesIn('paymentDate', terms.paymentDate ?? undefined)
        form.setFieldState('paymentDate', (s) => {
          s.disabled = terms.allowModify === false
        })
      })
      .catch(() => undefined)
  }
  // The latest party chosen wins; a date the clerk typed while the answer was on its way is kept.
  const continuing = useRef(new Map<string, number>())
  continueDate.current = (name, rule, party) => {
    const turn = (continuing.current.get(name) ?? 0) + 1
    continuing.current.set(name, turn)
    if (typeof party !== 'string' || !party) return
    const before = form.values[name]
    continuedDate(header, rule, party)
      .then((date) => {
        if (date && continuing.current.get(name) === turn && form.values[name] === before) form.setValuesIn(name, date)
      })
      .catch(() => undefined)
  }
  // Made from a source that has nothing left to take: the header is filled, the clerk is told why no line.
  const toldNoLine = useRef(false)
  useEffect(() => {
    if (!made?.noLine || toldNoLine.current) return
    toldNoLine.current = true
    message.warning(tr('所选单据已结算或已在其他单据中，未添加明细'))
  }, [made, message, tr])
  // A new retail out sheet gets today's date (members have no terms) before any member is chosen; the
  // product search follows a warehouse the form started with (the clerk's last one).
  const started = useRef(false)
  useEffect(() => {
    if (started.current) return
    started.current = true
    if (mode === 'add' && paymentRule?.party === 'memberId') loadPaymentDate.current(undefined, true)
    if (mode === 'add' && form.values[warehouseField]) setScId(form.values[warehouseField] as string)
  }, [mode, paymentRule, form, warehouseField])

  loadPlan.current = (planId) => {
    setRows([])
    if (!planId) return
    void (async () => {
      const config = await call(takeStock.config.read, undefined, { hideError: true }).catch(() => ({ showProduct: true }))
      if (config.showProduct === false) return
      const planLines = await call(takeStock.planProducts, { planId })
      setRows(planLines.map((l) => ({ ...lineFromPlan(l), __key: newLineKey() })))
    })().catch(() => undefined)
  }
  loadPre.current = (preId) => {
    if (!preId) return
    const planId = form.values.planId as string | undefined
    void (async () => {
      const [counts, pre] = await Promise.all([
        call(takeStock.preProducts, { id: preId, planId }),
        call(takeStock.pre.get, { id: preId }),
      ])
      setRows((current) => mergePreCounts(current, counts, pre.details ?? [], (p) => lineFromProduct(p, lines)))
    })().catch(() => undefined)
  }

  loadSource.current = (id) => {
    if (!link || !section.totals) return
    setLinked(Boolean(id))
    if (!id) {
      setRows([])
      return
    }
    call(declaredCalls.sourceLoader({ loader: link.load }), { id })
      .then((source) => {
        const copied: Record<string, unknown> = {}
        for (const name of link.copy) if (form.query(name).take() && source[name] !== undefined) copied[name] = source[name]
        form.setValues(copied)
        const party = paymentRule && copied[paymentRule.party]
        if (party) loadPaymentDate.current(party, true)
        setRows((source.details ?? []).map((l) => ({ ...lineFromSource(l, linkField, section.totals!.num, link.startAtZero), __key: newLineKey() })))
      })
      .catch(() => form.setValuesIn(link.headerField, undefined))
  }

  const totals = documentTotals(rows, section.totals)
  const sums = documentSums(rows, section.sums)
  const lineSubject = lineSubjectOf(section)
  const products = hasProductLines(section)

  const finish = () => {
    // What this user chose for fields declared to start with the last choice (仓库) starts their next document.
    for (const { field } of items) if (field.defaultFrom === 'last') rememberValue(userId, field.name, form.values[field.name])
    documentsChanged(header.name)
    navigate(listPath)
    closeTab(location.pathname)
  }

  /** Checks as the server does, showing the first problem; answers the body to send. */
  const collect = async (): Promise<Record<string, unknown> | undefined> => {
    try {
      await form.validate()
    } catch {
      const text = firstError(items, form.errors)
      if (text) message.error(text)
      return undefined
    }
    const values = form.values as Record<string, unknown>
    if (link && showSource && mode === 'add' && !values[link.headerField]) {
      message.error(tr(`请选择${header.byName.get(link.headerField)?.label ?? ''}`))
      return undefined
    }
    if (!rows.length) {
      message.error(tr(`${subject}中的${lineSubject}不能为空！`))
      return undefined
    }
    // Lines of a return left at 0 are not returned (`follows.startQuantity`); all at 0 is refused as the server does.
    const sent = link?.startAtZero && section.totals ? linesToSend(rows, section.totals.num) : rows
    if (link?.startAtZero && section.totals && rows.every((r) => Number(r[section.totals!.num] ?? 0) === 0)) {
      message.error(tr(section.follows?.zeroMessage ?? `${subject}的数量不能全部为0！`))
      return undefined
    }
    const lineFields = lines.fields.filter((f) => !f.readOnly && !f.builtin && f.name !== 'productId')
    for (const [i, row] of sent.entries())
      for (const f of lineFields.filter((x) => !hidden.has(x.name))) {
        const problem = checkField(f, row[f.name], meta.enums, 'create')
        if (problem) {
          message.error(tr(`第${i + 1}行${lineSubject}${problem}`))
          return undefined
        }
      }
    if (hasPayments) {
      const missing = payments.findIndex((p) => !p.id)
      if (missing >= 0) {
        message.error(tr(`第${missing + 1}个支付方式：请选择支付方式`))
        return undefined
      }
      if (payments.length && !paymentsMatch(payments, totals.amount)) {
        message.error(tr('所有支付方式的支付金额不等于含税总金额，请检查！'))
        return undefined
      }
    }
    const body: Record<string, unknown> = {
      ...toSubmitValues(items, values),
      products: sent.map((row) => {
        const line: Record<string, unknown> = products ? { productId: row.productId } : {}
        for (const f of lineFields) line[f.name] = row[f.name] === '' || hidden.has(f.name) ? null : row[f.name]
        if (linkField && row[linkField]) line[linkField] = row[linkField]
        return line
      }),
    }
    if (hasPayments) body.payTypes = payments.map((p) => ({ id: p.id, payAmount: p.payAmount, text: p.text ?? null }))
    if (record) body.id = record.id
    return body
  }

  // One action at a time (a second click is ignored); the buttons spin only once the checks in the
  // browser passed and the server is asked, so a refusal shown at once leaves no spinner behind.
  const running = useRef(false)
  const run = async (work: (spin: () => void) => Promise<void>) => {
    if (running.current) return
    running.current = true
    try {
      await work(() => setBusy(true))
    } catch {
      // The api layer has shown the server's message.
    } finally {
      running.current = false
      setBusy(false)
    }
  }

  /**
   * An order with a total and no agreed payment cannot be approved (单据没有约定支付，请检查！): saving
   * it asks first, approving it directly is stopped here.
   */
  const missingPayments = () => hasAgreedPayments(header.file) && !payments.length && !new Decimal(totals.amount || 0).isZero()
  const confirmWithoutPayments = () =>
    new Promise<boolean>((resolve) =>
      modal.confirm({
        title: tr('单据没有约定支付'),
        content: tr('没有约定支付的单据审核时将被拒绝（单据没有约定支付，请检查！）。确定不填写约定支付就保存吗？'),
        okText: tr('仍然保存'),
        cancelText: tr('去填写'),
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      }),
    )

  const save = (approve: boolean) =>
    run(async (spin) => {
      const body = await collect()
      if (!body) return
      if (missingPayments()) {
        // The clerk is offered one agreed payment for the whole amount: only its pay type is left to choose.
        const offer = () => setPayments([{ __key: newLineKey(), payAmount: paymentsRemaining([], totals.amount) }])
        if (approve) {
          offer()
          return void message.error(tr('单据没有约定支付，请检查！'))
        }
        if (!(await confirmWithoutPayments())) return offer()
      }
      spin()
      if (approve) {
        await call(calls.createAndApprove, body)
        done(tr('审核通过！'))
      } else if (record) {
        await call(calls.modify, body)
        done(tr('修改成功！'))
      } else {
        await call(calls.create, body)
        done(tr('新增成功！'))
      }
      finish()
    })

  // The approval page lets the approver fix the agreed payments: changed ones are saved with the document first.
  const paymentsChanged = () =>
    JSON.stringify(payments.map((p) => [p.id, p.payAmount, p.text ?? ''])) !== JSON.stringify(savedPayments.map((p) => [p.id, p.payAmount, p.text ?? '']))
  const approvePass = () =>
    run(async (spin) => {
      if (paymentsEditable && paymentsChanged()) {
        const body = await collect()
        if (!body) return
        spin()
        await call(calls.modify, body)
      } else if (paymentsEditable && missingPayments()) return void message.error(tr('单据没有约定支付，请检查！'))
      spin()
      await call(calls.approvePass, { id: record!.id })
      done(tr('审核通过！'))
      finish()
    })

  /** 计算总重量…: the server derives a header value from what the lines refer to (`lineCalcs`). */
  const calculate = async (c: NonNullable<DocumentSection['lineCalcs']>[number]) => {
    const key = section.lines.pick?.field
    if (!rows.length || !key) return void message.error(tr(`请先添加${lineSubject}`))
    try {
      form.setValuesIn(c.field, await call(declaredCalls.lineCalc(c), { [c.param]: rows.map((r) => String(r[key])).join(',') }))
    } catch {
      // The api layer has shown the server's message (a product without weight…).
    }
  }

  const statusField = header.byName.get('status')

  return (
    <div className="document-page">
      <Card size="small" variant="borderless" style={{ marginBottom: 12 }}>
        {record && (
          <Space style={{ marginBottom: 12 }} wrap>
            <Typography.Text strong>{tr('单据号：')}{String(record.code ?? '')}</Typography.Text>
            {statusField?.enum && (
              <Tag color={enumColor(statusField, record.status, meta.enums)}>{meta.enums.label(statusField.enum, record.status)}</Tag>
            )}
            {record.refuseReason ? <Typography.Text type="danger">{tr('拒绝理由：')}{String(record.refuseReason)}</Typography.Text> : null}
          </Space>
        )}
        {/* A long label (English) wraps instead of ending in "…", as in every entity form. */}
        <Form form={form} labelWidth={header.file.views?.form?.labelWidth ?? FORM_DEFAULTS.labelWidth} labelWrap previewTextPlaceholder="-">
          <SchemaField schema={schema} />
        </Form>
      </Card>
      <Card size="small" variant="borderless" style={{ marginBottom: 12 }}>
        <DocumentLines
          meta={meta}
          lines={lines}
          section={section}
          rows={rows}
          onChange={setRows}
          readOnly={readOnly}
          linkField={linkField}
          searchUrl={productSearchUrl(header.file)}
          scId={scId}
          showStock={section.lineStock === true && (!readOnly || canApprove)}
          hidden={hidden}
          giftsOnly={linked}
          extraColumns={extraColumnsOf(header.name, rows)}
          headerValues={() => form.values as Record<string, unknown>}
          headerLabel={(name) => header.byName.get(name)?.label ?? name}
        />
        {!readOnly && (section.lineCalcs?.length ?? 0) > 0 && (
          <Space style={{ marginTop: 12 }}>
            {section.lineCalcs!.map((c) => (
              <Button key={c.field} onClick={() => void calculate(c)}>
                {tr(`计算${header.byName.get(c.field)?.label ?? c.field}`)}
              </Button>
            ))}
          </Space>
        )}
        {sums.length > 0 && (
          <Space size="large" style={{ marginTop: 12 }} aria-label={tr('合计')}>
            {sums.map((s) => (
              <span key={s.field}>
                {header.byName.get(s.field)?.label ?? s.field}：<b data-total={s.field}>{s.value}</b>
              </span>
            ))}
          </Space>
        )}
        {section.totals && (
          <Space size="large" style={{ marginTop: 12 }} aria-label={tr('合计')}>
            <span>
              {tr('数量：')}<b data-total="num">{totals.num}</b>
            </span>
            {section.totals.gift && (
              <span>
                {tr('赠品数量：')}<b data-total="giftNum">{totals.giftNum}</b>
              </span>
            )}
            {section.totals.price && (
              <span>
                {tr('总金额：')}<b data-total="amount">{totals.amount}</b>
              </span>
            )}
          </Space>
        )}
      </Card>
      {hasPayments && (
        <Card size="small" variant="borderless" style={{ marginBottom: 12 }}>
          {canApprove && missingPayments() && (
            <Alert style={{ marginBottom: 8 }} type="warning" showIcon message={tr('单据没有约定支付，请添加支付方式后再审核通过（审核通过时一并保存）。')} />
          )}
          <AgreedPayments rows={payments} onChange={setPayments} total={totals.amount} readOnly={!paymentsEditable} />
        </Card>
      )}
      {record && (
        <Card size="small" variant="borderless" style={{ marginBottom: 12 }} title={tr('单据时间线')}>
          <OrderTimeline orderId={record.id} enums={meta.enums} version={`${String(record.status)}:${String(record.updateTime ?? '')}:${String(record.approveTime ?? '')}`} />
        </Card>
      )}
      <Space>
        {!readOnly && (
          <Button type="primary" loading={busy} onClick={() => void save(false)}>
            {tr('保存')}
          </Button>
        )}
        {mode === 'add' && hasApproval(section) && (
          <Button loading={busy} onClick={() => void save(true)}>
            {tr('直接审核通过')}
          </Button>
        )}
        {canApprove && (
          <>
            <Button type="primary" loading={busy} onClick={() => void approvePass()}>
              {tr('审核通过')}
            </Button>
            <Button danger onClick={() => setRefusing(true)}>
              {tr('审核拒绝')}
            </Button>
          </>
        )}
        {record && <PrintButton kind={header.name} ids={() => [String(record.id)]} />}
        <Button onClick={() => navigate(listPath)}>{tr('返回')}</Button>
      </Space>
      <RefuseDialog
        open={refusing}
        onCancel={() => setRefusing(false)}
        onConfirm={async (reason) => {
          await call(calls.approveRefuse, { id: record!.id, refuseReason: reason })
          setRefusing(false)
          done(tr('审核拒绝！'))
          finish()
        }}
      />
    </div>
  )
}

import { useEffect, useMemo, useState } from 'react'
import { Button, Result, Space, Spin } from 'antd'
import { createForm, onFieldInputValueChange, onFormMount, type Field, type Form as FormilyForm } from '@formily/core'
import { connect, mapReadPretty } from '@formily/react'
import { Form } from '@formily/antd-v5'
import type { Meta } from '../api/meta.js'
import { ApiError } from '../api/http.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import { deriveRules } from '../../shared/metadata/derive.js'
import { entityApi, type EntityRow } from './entity-api.js'
import { useFeedback } from '../components/feedback.js'
import { useReportDirty } from './GuardedModal.js'
import { SchemaField } from './form-components.js'
import { formControl, type FormControlProps } from '../components/form-controls.js'
import { buildFormSchema, customControlName, formItems, FORM_DEFAULTS, type FormItemModel, type FormMode } from './form-schema.js'
import { firstError, initialFormValues, toSubmitValues } from './form-values.js'
import { useTr } from '../i18n/use-tr.js'
import { formLabelWidth } from './form-label-width.js'
import { nextCode } from './next-code.js'
import { pickerFillEffects } from './picker-fills.js'
import { hasPermission, useSession } from '../app/session.js'

export interface FormViewProps {
  meta: Meta
  entity: EntityModel
  mode: FormMode
  /** The record to modify or show (loaded fresh from `GET {base}?id=`). */
  id?: string
  onSaved: (id?: string) => void
  onCancel: () => void
}

/**
 * The add / modify / detail form of an entity, built from `views.form.items`, with its own 取消 and
 * 确定 buttons. Adding POSTs, modifying PUTs with the id; a detail form is read-only.
 */
export default function FormView(props: FormViewProps) {
  const tr = useTr()
  const { entity, mode, id } = props
  const [record, setRecord] = useState<EntityRow | undefined>()
  const [failure, setFailure] = useState<string | undefined>()
  const needRecord = mode !== 'add'

  useEffect(() => {
    if (!needRecord || !id) return
    let live = true
    entityApi(entity)
      .get(id)
      .then((r) => live && setRecord(r))
      .catch((e: unknown) => live && setFailure(e instanceof Error ? e.message : String(e)))
    return () => {
      live = false
    }
  }, [entity, id, needRecord])

  if (needRecord && failure)
    return <Result status="warning" title={failure} extra={<Button onClick={props.onCancel}>{tr('取消')}</Button>} />
  if (needRecord && !record) return <Spin style={{ display: 'block', padding: 48 }} />
  return <EntityForm {...props} record={record} />
}

/** A message the server put on a field holds until the user changes that field. */
function clearServerErrorsOnInput() {
  onFieldInputValueChange('*', (field) => {
    if (field.selfErrors.length) field.setFeedback({ type: 'error', code: 'EffectError', messages: [] })
  })
}

/** Derived fields (the supplier's mnemonic code from its name) follow the user's edits of their source. */
function deriveEffects(form: FormilyForm, items: readonly FormItemModel[]) {
  for (const { field } of items) {
    const derive = field.derive
    if (!derive) continue
    onFieldInputValueChange(derive.from, (source) => {
      const target = form.query(field.name).take() as Field | undefined
      if (!target || !target.editable) return
      let value = deriveRules[derive.rule](String(source.value ?? ''))
      if (field.maxLength) value = value.slice(0, field.maxLength)
      target.setValue(value)
      // A message shown for the empty field must go once the value is filled in for the user.
      if (target.selfErrors.length) void target.validate()
    })
  }
}

/**
 * A numbered field (schemas/entities/code-rule.json) of a new record starts with the next code of its
 * rule; the clerk may type another. Without the right to take one the field simply stays empty.
 */
function numberingEffects(form: FormilyForm, entity: EntityModel, items: readonly FormItemModel[]) {
  onFormMount(() => {
    for (const { field } of items) {
      if (!field.numbering) continue
      void nextCode(entity.name, field.name).then((code) => {
        const target = form.query(field.name).take() as Field | undefined
        if (code && target?.editable && (target.value === undefined || target.value === null || target.value === '')) target.setValue(code)
      })
    }
  })
}

function EntityForm({ meta, entity, mode, record, onSaved, onCancel }: FormViewProps & { record?: EntityRow }) {
  const tr = useTr()
  const { message, modal } = useFeedback()
  const reportDirty = useReportDirty()
  const session = useSession()
  const userId = session.user?.id
  const [saving, setSaving] = useState(false)
  const items = useMemo(
    () => formItems(entity, mode, meta.entityOrUndefined, (f) => Boolean(formControl(entity.name, f.name)), (key) => hasPermission(session, key)),
    [entity, mode, meta, session],
  )
  // Controls registered by feature modules, given the record and a read-only rendering for detail forms.
  const customComponents = useMemo(() => {
    const out: Record<string, ReturnType<typeof connect>> = {}
    for (const { field } of items) {
      const Control = formControl(entity.name, field.name)
      if (!Control) continue
      const WithRecord = (p: FormControlProps) => <Control {...p} record={record} />
      out[customControlName(field)] = connect(WithRecord, mapReadPretty((p: FormControlProps) => <WithRecord {...p} readPretty />))
    }
    return out
  }, [items, entity, record])
  const schema = useMemo(() => buildFormSchema(entity, items, meta.enums, mode, record), [entity, items, meta, mode, record])
  const labelWidth = useMemo(
    () => formLabelWidth(items.map((i) => i.field.label), entity.file.views?.form?.labelWidth ?? FORM_DEFAULTS.labelWidth),
    [items, entity],
  )
  const form = useMemo(
    () =>
      createForm({
        initialValues: initialFormValues(items, mode, record, userId),
        readPretty: mode === 'detail',
        effects: (f) => {
          deriveEffects(f, items)
          pickerFillEffects(f, items, meta.pickerEntity)
          if (mode === 'add') numberingEffects(f, entity, items)
          clearServerErrorsOnInput()
          // A value the user entered (pickers and selects too, not only typing) makes the dialog ask before closing.
          onFieldInputValueChange('*', () => reportDirty(true))
        },
      }),
    [entity, items, mode, record, reportDirty, userId],
  )
  const api = useMemo(() => entityApi(entity), [entity])

  const showFirstError = () => {
    const text = firstError(items, form.errors)
    if (text) message.error(text)
  }

  const ask = (content: string) =>
    new Promise<boolean>((resolve) => {
      modal.confirm({ title: tr('提示'), content, okText: tr('确定'), cancelText: tr('取消'), onOk: () => resolve(true), onCancel: () => resolve(false) })
    })

  const save = async () => {
    if (saving) return
    try {
      await form.validate()
    } catch {
      showFirstError()
      return
    }
    const body = toSubmitValues(items, form.values as Record<string, unknown>)
    if (mode === 'add') {
      const confirmText = items.map((i) => i.field.immutable?.confirm).find(Boolean)
      if (confirmText && !(await ask(confirmText))) return
    }
    setSaving(true)
    try {
      if (mode === 'add') {
        const id = await api.create(body)
        message.success(tr('新增成功！'))
        onSaved(id)
      } else {
        await api.modify({ ...body, id: record!.id })
        message.success(tr('修改成功！'))
        onSaved(record!.id)
      }
    } catch (e) {
      // The api layer has shown the message; also mark the field the server named.
      if (e instanceof ApiError && e.field && form.query(e.field).take())
        form.setFieldState(e.field, (state) => {
          state.selfErrors = [e.message]
        })
    } finally {
      setSaving(false)
    }
  }

  return (
    <>
      <Form
        form={form}
        labelWidth={labelWidth}
        // A label longer than the label column wraps onto a second line instead of ending in "…" (form-label-width.ts).
        labelWrap
        previewTextPlaceholder="-"
        onAutoSubmit={() => void save()}
        onAutoSubmitFailed={showFirstError}
      >
        <SchemaField schema={schema} components={customComponents} />
      </Form>
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 16 }}>
        <Space>
          <Button onClick={onCancel}>{tr('取消')}</Button>
          {mode !== 'detail' && (
            <Button type="primary" loading={saving} onClick={() => void save()}>
              {tr('确定')}
            </Button>
          )}
        </Space>
      </div>
    </>
  )
}

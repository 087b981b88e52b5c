import { useEffect, useMemo, useState } from 'react'
import { Alert, Button, Card, Modal, Result, Space, Spin } from 'antd'
import { createForm, type Form } from '@formily/core'
import { FormProvider, type ISchema } from '@formily/react'
import { FormLayout } from '@formily/antd-v5'
import { call } from '../api/call.js'
import { useCall } from '../app/use-call.js'
import { lowcodeRuntime } from '../../shared/contracts/lowcode.js'
import { useFeedback } from '../components/feedback.js'
import { checkFormSchema } from './formily-schema.js'
import { CustomFormSchemaField } from './formily-components.js'
import type { CustomFormConfig } from '../../shared/contracts/lowcode-wire.js'
import { runScript } from '../sandbox/script-runner.js'
import { ScriptError } from '../../shared/sandbox/script-error.js'
import { useTr } from '../i18n/use-tr.js'
import { dialogWidth } from './dialog-width.js'

export interface CustomFormHostProps {
  formId: string
  /** Handed to the form: the get call's body, and merged into the submitted values. */
  requestParam?: Record<string, unknown>
  /** Show in a dialog (buttons of custom lists); otherwise in the page (menus, page blocks). */
  asDialog?: boolean
  onClose?: () => void
  onSubmitted?: () => void
}

/** A custom form (001 §3 "Custom form config") from `GET /gen/api/custom/form/config?id`. */
export default function CustomFormHost(props: CustomFormHostProps) {
  const tr = useTr()
  const { data: config, error } = useCall(lowcodeRuntime.formConfig, { id: props.formId }, { swr: { revalidateOnFocus: false } })
  const body = error ? (
    <Result status="warning" title={tr('自定义表单加载失败')} subTitle={error instanceof Error ? error.message : undefined} />
  ) : !config ? (
    <Spin style={{ display: 'block', padding: 48 }} />
  ) : undefined
  if (body)
    return props.asDialog ? (
      <Modal open title={tr('自定义表单')} footer={null} onCancel={props.onClose}>
        {body}
      </Modal>
    ) : (
      body
    )
  return <CustomFormBody {...props} config={config!} />
}

/** The form itself, from a config already at hand (also the admin screen's live preview). */
export function CustomFormBody({ formId, requestParam, asDialog, onClose, onSubmitted, config, preview }: CustomFormHostProps & { config: CustomFormConfig; preview?: boolean }) {
  const tr = useTr()
  const { message } = useFeedback()
  const checked = useMemo(() => checkFormSchema(config.formConfig), [config.formConfig])
  const form = useMemo<Form>(() => createForm({ initialValues: requestParam ?? {} }), [checked, requestParam]) // eslint-disable-line react-hooks/exhaustive-deps
  const [submitting, setSubmitting] = useState(false)
  const [loading, setLoading] = useState(config.requireQuery && !preview)

  useEffect(() => {
    if (!config.requireQuery || preview) return
    let live = true
    call(lowcodeRuntime.formValues, { query: { id: formId }, body: requestParam ?? {} })
      .then((values) => {
        // The loaded values are the form's starting values: a field the user already changed keeps what they typed.
        if (live && values && typeof values === 'object') form.setInitialValues(values)
      })
      .catch(() => undefined)
      .finally(() => live && setLoading(false))
    return () => {
      live = false
    }
  }, [config.requireQuery, formId, form, requestParam, preview])

  const submit = async () => {
    if (preview) return
    let values: Record<string, unknown>
    try {
      values = (await form.submit()) as Record<string, unknown>
    } catch {
      return
    }
    const formData = { ...(requestParam ?? {}), ...JSON.parse(JSON.stringify(values)) }
    const self = { formId, requestParam: requestParam ?? {} }
    setSubmitting(true)
    try {
      if (config.prefixSubmit?.trim()) {
        const stop = await runScript(config.prefixSubmit, [formData, self], { params: ['formData', '_this'] })
        if (stop) {
          if (typeof stop === 'string') void message.warning(stop)
          return
        }
      }
      await call(lowcodeRuntime.submitForm, { query: { id: formId }, body: formData })
      let keepOpen: unknown = false
      if (config.suffixSubmit?.trim()) keepOpen = await runScript(config.suffixSubmit, [formData, self], { params: ['formData', '_this'] })
      void message.success(typeof keepOpen === 'string' ? keepOpen : tr('提交成功'))
      onSubmitted?.()
      if (!keepOpen) onClose?.()
    } catch (e) {
      if (e instanceof ScriptError) void message.error(e.message)
    } finally {
      setSubmitting(false)
    }
  }

  if (!checked.ok)
    return <Alert type="error" showIcon message={tr('表单配置不正确')} description={checked.errors.slice(0, 10).map((e) => <div key={e}>{e}</div>)} />

  const canSubmit = Boolean(config.handleBean?.trim())
  const fields = (
    <Spin spinning={loading}>
      <FormProvider form={form}>
        <FormLayout labelCol={6} wrapperCol={16}>
          <CustomFormSchemaField schema={checked.schema as ISchema} scope={{}} />
        </FormLayout>
      </FormProvider>
    </Spin>
  )
  const title = config.dialogTittle || config.name || tr('自定义表单')
  if (asDialog)
    return (
      <Modal
        open
        title={title}
        width={dialogWidth(config.dialogWidth)}
        onCancel={onClose}
        destroyOnClose
        footer={
          <Space>
            <Button onClick={onClose}>{tr('取消')}</Button>
            {canSubmit && (
              <Button type="primary" loading={submitting} onClick={() => void submit()}>
                {tr('提交')}
              </Button>
            )}
          </Space>
        }
      >
        {fields}
      </Modal>
    )
  return (
    <Card size="small" title={preview ? undefined : title} className="custom-form">
      {fields}
      {canSubmit && (
        <div style={{ textAlign: 'center' }}>
          <Button type="primary" loading={submitting} onClick={() => void submit()}>
            {tr('提交')}
          </Button>
        </div>
      )}
    </Card>
  )
}

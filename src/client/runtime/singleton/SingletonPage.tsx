import { useEffect, useMemo, useState } from 'react'
import { Button, Card, Form, Input, InputNumber, Result, Space, Spin, Switch } from 'antd'
import { call } from '../../api/call.js'
import { singletonCalls } from '../../../shared/contracts/singleton-calls.js'
import { useMeta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import type { EntityModel, FieldModel } from '../../../shared/metadata/entity-model.js'
import { checkField } from '../../../shared/metadata/validate-record.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import { useTr } from '../../i18n/use-tr.js'
import { PAGE_FORM_WIDTH } from '../../../shared/look/ui-constants.js'

/**
 * The settings page of a singleton entity (采购/销售/零售参数设置, 盘点参数设置): one row, `GET` and
 * `PUT {api.base}`, its fields in `views.form.items` order (switches for flags, numbers, texts).
 */
export default function SingletonPage({ entityName }: { entityName: string }) {
  const tr = useTr()
  const meta = useMeta()
  if (!meta) return <Spin style={{ display: 'block', padding: 48 }} />
  const entity = meta.entityOrUndefined(entityName)
  if (!entity?.file.api) return <Result status="404" title="404" subTitle={tr(`未知的参数设置：${entityName}`)} />
  return (
    <FeedbackProvider>
      <SingletonForm entity={entity} />
    </FeedbackProvider>
  )
}

function fieldsOf(entity: EntityModel): FieldModel[] {
  const names = (entity.file.views?.form?.items as unknown[] | undefined)?.filter((n): n is string => typeof n === 'string')
  const declared = entity.fields.filter((f) => !f.hidden && !f.builtin && !f.readOnly)
  return names?.length ? names.map((n) => entity.byName.get(n)).filter((f): f is FieldModel => Boolean(f)) : declared
}

function SingletonForm({ entity }: { entity: EntityModel }) {
  const tr = useTr()
  const meta = useMeta()!
  const { message } = useFeedback()
  const can = usePermission()
  const base = entity.file.api!.base
  const calls = useMemo(() => singletonCalls(base), [base])
  const [form] = Form.useForm<Record<string, unknown>>()
  const [loaded, setLoaded] = useState(false)
  const [busy, setBusy] = useState(false)
  const fields = fieldsOf(entity)
  const editable = can([`${entity.file.api!.permission}:modify`])

  useEffect(() => {
    let live = true
    // Read on opening, not from a cache: the form starts from the values saved now.
    call(calls.read)
      .then((values) => {
        if (!live) return
        form.setFieldsValue(values as never)
        setLoaded(true)
      })
      .catch(() => live && setLoaded(true))
    return () => {
      live = false
    }
  }, [calls, form])

  const save = async () => {
    const values = form.getFieldsValue(true) as Record<string, unknown>
    for (const f of fields) {
      const problem = checkField(f, values[f.name], meta.enums, 'modify')
      if (problem) {
        message.error(problem)
        return
      }
    }
    setBusy(true)
    try {
      await call(calls.save, Object.fromEntries(fields.map((f) => [f.name, values[f.name] ?? null])))
      message.success(tr('保存成功！'))
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setBusy(false)
    }
  }

  if (!loaded) return <Spin style={{ display: 'block', padding: 48 }} />
  return (
    <Card size="small" variant="borderless" className="singleton-page">
      <Form form={form} layout="vertical" disabled={!editable} style={{ width: PAGE_FORM_WIDTH }} data-page-form>
        {fields.map((f) => (
          <Form.Item key={f.name} name={f.name} label={f.label} valuePropName={f.type === 'boolean' ? 'checked' : 'value'}>
            {f.type === 'boolean' ? (
              <Switch aria-label={f.label} checkedChildren={tr('是')} unCheckedChildren={tr('否')} />
            ) : f.type === 'integer' || f.type === 'decimal' ? (
              <InputNumber aria-label={f.label} min={f.min ?? undefined} precision={f.type === 'integer' ? 0 : f.scale} style={{ width: 240 }} />
            ) : (
              <Input aria-label={f.label} maxLength={f.maxLength} />
            )}
          </Form.Item>
        ))}
      </Form>
      {editable && (
        <Space>
          <Button type="primary" loading={busy} onClick={() => void save()}>
            {tr('保存')}
          </Button>
        </Space>
      )}
    </Card>
  )
}

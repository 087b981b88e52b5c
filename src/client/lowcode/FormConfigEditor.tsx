import { useDeferredValue, useMemo } from 'react'
import { Alert, Button, Col, Row, Typography } from 'antd'
import type { FormControlProps } from '../components/form-controls.js'
import { CustomFormBody } from './CustomFormHost.js'
import { checkFormSchema, EXAMPLE_FORM_SCHEMA } from './formily-schema.js'
import LazyMonaco from './LazyMonaco.js'
import { useTr } from '../i18n/use-tr.js'

// The model path the Monaco JSON service matches the Formily meta-schema by (monaco-setup.ts).
const MODEL_PATH = 'lowcode://form-config.json'

/**
 * The custom form's 表单配置: the Formily JSON schema in Monaco (validated against the whitelist
 * meta-schema as you type) with the live form beside it.
 */
export default function FormConfigEditor({ value, onChange, readOnly, readPretty, disabled, ...rest }: FormControlProps) {
  const tr = useTr()
  const text = typeof value === 'string' ? value : value ? JSON.stringify(value, null, 2) : ''
  const deferred = useDeferredValue(text)
  const checked = useMemo(() => checkFormSchema(deferred), [deferred])
  const locked = Boolean(readOnly || readPretty || disabled)
  return (
    <Row gutter={12} className="form-config-editor">
      <Col span={13}>
        {!text && !locked && (
          <Button size="small" style={{ marginBottom: 4 }} onClick={() => onChange?.(JSON.stringify(EXAMPLE_FORM_SCHEMA, null, 2))}>
            {tr('插入示例')}
          </Button>
        )}
        <LazyMonaco language="json" path={MODEL_PATH} value={text} height={360} readOnly={locked} ariaLabel={rest['aria-label']} onChange={(v) => onChange?.(v)} />
      </Col>
      <Col span={11}>
        <Typography.Text type="secondary">{tr('预览')}</Typography.Text>
        <div className="form-config-preview" aria-label={tr('表单预览')} role="region" style={{ border: '1px dashed #d9d9d9', padding: 8, minHeight: 120, marginTop: 4 }}>
          {!deferred.trim() ? (
            <Typography.Text type="secondary">{tr('请输入表单配置')}</Typography.Text>
          ) : checked.ok ? (
            <CustomFormBody key={deferred} formId="preview" preview config={{ formConfig: checked.schema, isDialog: false, requireQuery: false }} />
          ) : (
            <Alert type="error" showIcon message={tr('表单配置不正确')} description={checked.errors.slice(0, 8).map((e) => <div key={e}>{e}</div>)} />
          )}
        </div>
      </Col>
    </Row>
  )
}

import { useState } from 'react'
import { Alert, App, Form, Input, Modal } from 'antd'
import { ApiError, defaultError } from '../../api/http.js'
import { useT } from '../../i18n/use-t.js'
import { patterns } from '../../../shared/metadata/patterns.js'
import { CaptchaImage, useCaptcha } from './CaptchaImage.js'
import { call } from '../../api/call.js'
import { auth } from '../../../shared/contracts/auth.js'

interface Values {
  username: string
  name?: string
  password: string
  confirm: string
  email?: string
  telephone?: string
  captcha?: string
}

/** 注册账号 (POST /auth/regist), offered on the login page only when /auth/init says registration is open. */
export function RegisterDialog({ open, captchaOn, onClose }: { open: boolean; captchaOn: boolean; onClose: () => void }) {
  const t = useT()
  const { message } = App.useApp()
  const [form] = Form.useForm<Values>()
  const { captcha, refresh } = useCaptcha(open && captchaOn)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)

  const submit = async (values: Values) => {
    setBusy(true)
    setError(undefined)
    try {
      await call(
        auth.regist,
        {
          username: values.username.trim(),
          name: values.name?.trim() || undefined,
          password: values.password,
          email: values.email?.trim() || undefined,
          telephone: values.telephone?.trim() || undefined,
          sn: captcha?.sn ?? '',
          captcha: values.captcha?.trim() ?? '',
        },
        { hideError: true },
      )
      void message.success(t('register.done'))
      form.resetFields()
      onClose()
    } catch (e) {
      setError(e instanceof ApiError ? e.message : defaultError())
      if (captchaOn) void refresh()
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal title={t('register.title')} open={open} onCancel={onClose} onOk={() => form.submit()} confirmLoading={busy} destroyOnHidden width={440}>
      {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
        <Form.Item
          name="username"
          label={t('login.username')}
          rules={[
            { required: true, whitespace: true, message: t('login.required.username') },
            { pattern: patterns.username.regex, message: patterns.username.message },
          ]}
        >
          <Input autoComplete="username" />
        </Form.Item>
        <Form.Item name="name" label={t('register.name')}>
          <Input />
        </Form.Item>
        <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: t('login.required.password') }]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('register.confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('login.required.password') },
            ({ getFieldValue }) => ({
              validator: (_, v) => (!v || v === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('register.mismatch')))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="email" label={t('register.email')} rules={[{ pattern: patterns.email.regex, message: patterns.email.message }]}>
          <Input autoComplete="email" />
        </Form.Item>
        <Form.Item name="telephone" label={t('login.telephone')} rules={[{ pattern: patterns.mobile.regex, message: patterns.mobile.message }]}>
          <Input autoComplete="tel" />
        </Form.Item>
        {captchaOn && (
          <Form.Item label={t('login.captcha')} required>
            <div className="login-captcha">
              <Form.Item name="captcha" noStyle rules={[{ required: true, whitespace: true, message: t('login.required.captcha') }]}>
                <Input aria-label={t('login.captcha')} maxLength={8} />
              </Form.Item>
              <CaptchaImage captcha={captcha} onRefresh={() => void refresh()} />
            </div>
          </Form.Item>
        )}
      </Form>
    </Modal>
  )
}

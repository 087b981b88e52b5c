import { useState } from 'react'
import { App, Button, Form, Input } from 'antd'
import { MobileOutlined, SafetyCertificateOutlined, TeamOutlined } from '@ant-design/icons'
import { ApiError, defaultError } from '../../api/http.js'
import { useT } from '../../i18n/use-t.js'
import { patterns } from '../../../shared/metadata/patterns.js'
import { useCountdown } from './use-countdown.js'
import { useFinishLogin } from './use-finish-login.js'
import { call } from '../../api/call.js'
import { auth } from '../../../shared/contracts/auth.js'

interface Values {
  telephone: string
  captcha: string
  tenantId?: string
}

/**
 * 手机号登录: GET /auth/login/telephone/captcha sends an SMS code (written to the server log while no
 * SMS provider is configured), POST /auth/login/telephone signs in with it.
 */
export function TelephoneLoginForm({ multiTenant, onError }: { multiTenant: boolean; onError: (message: string | undefined) => void }) {
  const t = useT()
  const { message } = App.useApp()
  const [form] = Form.useForm<Values>()
  const finish = useFinishLogin()
  const [left, startCountdown] = useCountdown()
  const [sending, setSending] = useState(false)
  const [submitting, setSubmitting] = useState(false)

  const sendCode = async () => {
    onError(undefined)
    let values: Pick<Values, 'telephone' | 'tenantId'>
    try {
      values = await form.validateFields(['telephone', 'tenantId'])
    } catch {
      return
    }
    setSending(true)
    try {
      await call(auth.telephoneCaptcha, { telephone: values.telephone.trim(), tenantId: values.tenantId?.trim() }, { hideError: true })
      startCountdown()
      void message.success(t('login.codeSent'))
    } catch (e) {
      onError(e instanceof ApiError ? e.message : defaultError())
    } finally {
      setSending(false)
    }
  }

  const submit = async (values: Values) => {
    onError(undefined)
    setSubmitting(true)
    try {
      const answer = await call(
        auth.telephoneLogin,
        { telephone: values.telephone.trim(), captcha: values.captcha.trim(), tenantId: values.tenantId?.trim() || undefined },
        { hideError: true },
      )
      await finish(answer)
    } catch (e) {
      onError(e instanceof ApiError ? e.message : defaultError())
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <Form form={form} name="telephone-login" size="large" onFinish={(v) => void submit(v)} autoComplete="off" requiredMark={false}>
      {multiTenant && (
        <Form.Item name="tenantId">
          <Input prefix={<TeamOutlined />} placeholder={t('login.tenant')} aria-label={t('login.tenant')} />
        </Form.Item>
      )}
      <Form.Item
        name="telephone"
        rules={[
          { required: true, whitespace: true, message: t('login.required.telephone') },
          { pattern: patterns.mobile.regex, message: patterns.mobile.message },
        ]}
      >
        <Input prefix={<MobileOutlined />} placeholder={t('login.telephone')} aria-label={t('login.telephone')} autoComplete="tel" maxLength={11} />
      </Form.Item>
      <Form.Item required>
        <div className="login-captcha">
          <Form.Item name="captcha" noStyle rules={[{ required: true, whitespace: true, message: t('login.required.captcha') }]}>
            <Input prefix={<SafetyCertificateOutlined />} placeholder={t('login.smsCode')} aria-label={t('login.smsCode')} autoComplete="one-time-code" maxLength={8} />
          </Form.Item>
          <Button className="login-code-button" onClick={() => void sendCode()} disabled={left > 0} loading={sending}>
            {left > 0 ? t('login.resend', { seconds: left }) : t('login.sendCode')}
          </Button>
        </div>
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  )
}

import { lazy, Suspense, useState } from 'react'
import { Alert, Button, Card, Form, Input, Tabs, Typography } from 'antd'
import { LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons'
import { Link } from 'react-router-dom'
import { ApiError, defaultError } from '../api/http.js'
import { usePageTitle, useSystemInit, useSystemTitle } from '../app/system-info.js'
import { useT } from '../i18n/use-t.js'
import { CaptchaImage, useCaptcha } from './login/CaptchaImage.js'
import { TelephoneLoginForm } from './login/TelephoneLoginForm.js'
import { useFinishLogin } from './login/use-finish-login.js'
import { call } from '../api/call.js'
import { auth } from '../../shared/contracts/auth.js'

const RegisterDialog = lazy(() => import('./login/RegisterDialog.js').then((m) => ({ default: m.RegisterDialog })))

interface LoginForm {
  username: string
  password: string
  captcha?: string
}

/** The login page: username and password with the captcha image, or telephone and SMS code; registration when open. */
export default function Login() {
  const t = useT()
  usePageTitle(t('page.login'))
  const [form] = Form.useForm<LoginForm>()
  const finish = useFinishLogin()
  const { data: init, error: initError, isLoading } = useSystemInit()
  // In the chosen language when it is the product's own name (as the shell's header shows it).
  const title = useSystemTitle()
  const captchaOn = init?.captcha ?? false
  const { captcha, failed: captchaFailed, refresh: refreshCaptcha } = useCaptcha(captchaOn)
  const [submitting, setSubmitting] = useState(false)
  const [error, setError] = useState<string>()
  const [registering, setRegistering] = useState(false)

  const submit = async (values: LoginForm) => {
    setSubmitting(true)
    setError(undefined)
    try {
      const answer = await call(
        auth.login,
        { username: values.username.trim(), password: values.password, sn: captcha?.sn ?? '', captcha: values.captcha?.trim() ?? '' },
        { hideError: true },
      )
      await finish(answer)
    } catch (e) {
      setError(e instanceof ApiError ? e.message : defaultError())
      form.setFieldValue('captcha', '')
      if (captchaOn) void refreshCaptcha()
    } finally {
      setSubmitting(false)
    }
  }

  const accountForm = (
    <Form form={form} name="login" size="large" onFinish={(v) => void submit(v)} autoComplete="off" requiredMark={false}>
      <Form.Item
        name="username"
        rules={[{ required: true, whitespace: true, message: t('login.required.username') }]}
        extra={init?.multiTenant ? t('login.multiTenant') : undefined}
      >
        <Input prefix={<UserOutlined />} placeholder={t('login.username')} aria-label={t('login.username')} autoComplete="username" autoFocus />
      </Form.Item>
      <Form.Item name="password" rules={[{ required: true, message: t('login.required.password') }]}>
        <Input.Password prefix={<LockOutlined />} placeholder={t('login.password')} aria-label={t('login.password')} autoComplete="current-password" />
      </Form.Item>
      {captchaOn && (
        <Form.Item required>
          <div className="login-captcha">
            <Form.Item name="captcha" noStyle rules={[{ required: true, whitespace: true, message: t('login.required.captcha') }]}>
              <Input prefix={<SafetyCertificateOutlined />} placeholder={t('login.captcha')} aria-label={t('login.captcha')} maxLength={8} autoComplete="off" />
            </Form.Item>
            <CaptchaImage captcha={captcha} onRefresh={() => void refreshCaptcha()} />
          </div>
        </Form.Item>
      )}
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting || isLoading}>
          {t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  )

  return (
    <div className="login-page">
      <Card className="login-card" variant="borderless">
        <div className="login-head">
          <Typography.Title level={3} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          <Typography.Text type="secondary">{t('login.welcome')}</Typography.Text>
        </div>
        {initError && <Alert type="warning" showIcon message={t('login.offline')} style={{ marginBottom: 16 }} />}
        {(error || captchaFailed) && <Alert type="error" showIcon message={error ?? t('login.captchaFailed')} role="alert" style={{ marginBottom: 16 }} />}
        <Tabs
          centered
          onChange={() => setError(undefined)}
          items={[
            { key: 'account', label: t('login.tab.account'), children: accountForm },
            { key: 'telephone', label: t('login.tab.telephone'), children: <TelephoneLoginForm multiTenant={!!init?.multiTenant} onError={setError} /> },
          ]}
        />
        <div className="login-links">
          {init?.allowRegist && (
            <Button type="link" size="small" onClick={() => setRegistering(true)}>
              {t('login.register')}
            </Button>
          )}
          <Link to="/forget-psw">{t('login.forget')}</Link>
        </div>
      </Card>
      {registering && (
        <Suspense fallback={null}>
          <RegisterDialog open={registering} captchaOn={captchaOn} onClose={() => setRegistering(false)} />
        </Suspense>
      )}
    </div>
  )
}

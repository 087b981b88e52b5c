import { useCallback, useEffect, useState } from 'react'
import { Alert, Button, Card, Form, Input, Typography } from 'antd'
import { LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import { useSWRConfig } from 'swr'
import { api, ApiError, STORAGE } from '../api/http.js'
import { saveSession, type SessionUser } from '../app/session.js'
import { usePageTitle, useSystemInit, DEFAULT_TITLE } from '../app/system-info.js'
import { clearTabs, WORKPLACE_PATH } from '../shell/tab-store.js'

interface LoginForm {
  username: string
  password: string
  captcha?: string
}

interface LoginAnswer {
  token: string
  user: SessionUser
  roles: string[]
  permissions: string[]
}

/** Where to go after signing in: the page that sent the user here, else the workplace. */
function redirectTarget(state: unknown): string {
  const from = (state as { from?: string } | null)?.from
  return from && from.startsWith('/') && !from.startsWith('/login') ? from : WORKPLACE_PATH
}

export default function Login() {
  usePageTitle('登录')
  const [form] = Form.useForm<LoginForm>()
  const navigate = useNavigate()
  const location = useLocation()
  const { mutate } = useSWRConfig()
  const { data: init, error: initError, isLoading } = useSystemInit()
  const title = init?.title || DEFAULT_TITLE
  const captchaOn = init?.captcha ?? false
  const [captcha, setCaptcha] = useState<{ sn: string; image: string }>()
  const [submitting, setSubmitting] = useState(false)
  const [error, setError] = useState<string>()

  const refreshCaptcha = useCallback(async () => {
    try {
      setCaptcha(await api.get<{ sn: string; image: string }>('/auth/captcha', undefined, { hideError: true }))
    } catch (e) {
      setError(e instanceof ApiError ? e.message : '验证码加载失败')
    }
  }, [])

  useEffect(() => {
    if (captchaOn) void refreshCaptcha()
  }, [captchaOn, refreshCaptcha])

  const submit = async (values: LoginForm) => {
    setSubmitting(true)
    setError(undefined)
    try {
      const answer = await api.post<LoginAnswer>(
        '/auth/login',
        { username: values.username.trim(), password: values.password, sn: captcha?.sn ?? '', captcha: values.captcha?.trim() ?? '' },
        { hideError: true },
      )
      // Another account may have used this browser tab: drop its cached menus and tabs.
      await mutate(() => true, undefined, { revalidate: false })
      localStorage.removeItem(STORAGE.routes)
      clearTabs()
      saveSession(answer)
      navigate(redirectTarget(location.state), { replace: true })
    } catch (e) {
      setError(e instanceof ApiError ? e.message : '登录失败，请稍后重试！')
      form.setFieldValue('captcha', '')
      if (captchaOn) void refreshCaptcha()
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <div className="login-page">
      <Card className="login-card" variant="borderless">
        <div className="login-head">
          <Typography.Title level={3} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          <Typography.Text type="secondary">欢迎登录</Typography.Text>
        </div>
        {initError && <Alert type="warning" showIcon message="无法连接服务器，请稍后重试" style={{ marginBottom: 16 }} />}
        {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
        <Form form={form} name="login" size="large" onFinish={(v) => void submit(v)} autoComplete="off" requiredMark={false}>
          <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]} extra={init?.multiTenant ? '多租户系统请按“租户ID@用户名”输入' : undefined}>
            <Input prefix={<UserOutlined />} placeholder="用户名" aria-label="用户名" autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password prefix={<LockOutlined />} placeholder="密码" aria-label="密码" autoComplete="current-password" />
          </Form.Item>
          {captchaOn && (
            <Form.Item required>
              <div className="login-captcha">
                <Form.Item name="captcha" noStyle rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}>
                  <Input prefix={<SafetyCertificateOutlined />} placeholder="验证码" aria-label="验证码" maxLength={8} autoComplete="off" />
                </Form.Item>
                <button type="button" className="login-captcha-image" title="看不清？点击刷新" aria-label="刷新验证码" onClick={() => void refreshCaptcha()}>
                  {captcha ? <img src={captcha.image} alt="验证码图片" /> : <span>加载中…</span>}
                </button>
              </div>
            </Form.Item>
          )}
          <Form.Item>
            <Button type="primary" htmlType="submit" block loading={submitting || isLoading}>
              登录
            </Button>
          </Form.Item>
          <div className="login-links">
            <Link to="/forget-psw">忘记密码？</Link>
          </div>
        </Form>
      </Card>
    </div>
  )
}

import { useEffect, useState } from 'react'
import { Alert, App, Button, Card, Form, Input, Radio, Result, Steps, Typography } from 'antd'
import { Link, useNavigate } from 'react-router-dom'
import { ApiError } from '../api/http.js'
import { usePageTitle } from '../app/system-info.js'
import { useTr } from '../i18n/use-tr.js'
import { call } from '../api/call.js'
import { auth } from '../../shared/contracts/auth.js'

type Channel = 'mail' | 'sms'
interface Account {
  username: string
  email: string | null
  telephone: string | null
}

export const CODE_RESEND_SECONDS = 60

/** Password recovery: find the account, send a code by mail or SMS, set a new password with it. */
export default function ForgetPassword() {
  const tr = useTr()
  usePageTitle(tr('找回密码'))
  const { message } = App.useApp()
  const navigate = useNavigate()
  const [step, setStep] = useState(0)
  const [account, setAccount] = useState<Account>()
  const [channel, setChannel] = useState<Channel>('mail')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [countdown, setCountdown] = useState(0)

  useEffect(() => {
    if (countdown <= 0) return
    const t = setTimeout(() => setCountdown((c) => c - 1), 1000)
    return () => clearTimeout(t)
  }, [countdown])

  const run = async (fn: () => Promise<void>) => {
    setBusy(true)
    setError(undefined)
    try {
      await fn()
    } catch (e) {
      setError(e instanceof ApiError ? e.message : tr('操作失败，请稍后重试！'))
    } finally {
      setBusy(false)
    }
  }

  const findAccount = (values: { username: string }) =>
    run(async () => {
      const username = values.username.trim()
      const found = await call(auth.forgetUsername, { username }, { hideError: true })
      setAccount({ username, ...found })
      setChannel(found.email ? 'mail' : 'sms')
      setStep(1)
    })

  const sendCode = () =>
    run(async () => {
      if (!account) return
      await call(auth.forgetCode[channel], { username: account.username }, { hideError: true })
      void message.success(channel === 'mail' ? tr('验证码已发送到您的邮箱') : tr('验证码已发送到您的手机'))
      setCountdown(CODE_RESEND_SECONDS)
    })

  const reset = (values: { code: string; password: string }) =>
    run(async () => {
      if (!account) return
      await call(auth.forgetReset[channel], { username: account.username, code: values.code.trim(), password: values.password }, { hideError: true })
      setStep(2)
    })

  return (
    <div className="login-page">
      <Card className="login-card forget-card" variant="borderless" title={tr('找回密码')}>
        <Steps size="small" current={step} items={[{ title: tr('填写用户名') }, { title: tr('验证身份') }, { title: tr('完成') }]} style={{ marginBottom: 24 }} />
        {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
        {step === 0 && (
          <Form layout="vertical" onFinish={(v: { username: string }) => void findAccount(v)} requiredMark={false}>
            <Form.Item name="username" label={tr('用户名')} rules={[{ required: true, whitespace: true, message: tr('请输入用户名') }]}>
              <Input placeholder={tr('请输入用户名')} autoComplete="username" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy}>
              {tr('下一步')}
            </Button>
          </Form>
        )}
        {step === 1 && account && (
          <Form layout="vertical" onFinish={(v: { code: string; password: string }) => void reset(v)} requiredMark={false}>
            <Form.Item label={tr('验证方式')}>
              <Radio.Group value={channel} onChange={(e) => setChannel(e.target.value as Channel)}>
                <Radio value="mail" disabled={!account.email}>
                  {tr('邮箱')} {account.email ?? tr('（未绑定）')}
                </Radio>
                <Radio value="sms" disabled={!account.telephone}>
                  {tr('手机')} {account.telephone ?? tr('（未绑定）')}
                </Radio>
              </Radio.Group>
            </Form.Item>
            {!account.email && !account.telephone ? (
              <Typography.Text type="danger">{tr('该用户未绑定邮箱和手机号，请联系管理员重置密码。')}</Typography.Text>
            ) : (
              <>
                <Form.Item label={tr('验证码')} required>
                  <div className="login-captcha">
                    <Form.Item name="code" noStyle rules={[{ required: true, whitespace: true, message: tr('请输入验证码') }]}>
                      <Input placeholder={tr('验证码')} aria-label={tr('验证码')} autoComplete="one-time-code" />
                    </Form.Item>
                    <Button onClick={() => void sendCode()} disabled={countdown > 0} loading={busy && countdown === 0}>
                      {countdown > 0 ? tr(`${countdown}秒后重新发送`) : tr('发送验证码')}
                    </Button>
                  </div>
                </Form.Item>
                <Form.Item name="password" label={tr('新密码')} rules={[{ required: true, message: tr('请输入新密码') }]}>
                  <Input.Password placeholder={tr('请输入新密码')} autoComplete="new-password" />
                </Form.Item>
                <Form.Item
                  name="confirm"
                  label={tr('确认密码')}
                  dependencies={['password']}
                  rules={[
                    { required: true, message: tr('请再次输入新密码') },
                    ({ getFieldValue }) => ({
                      validator: (_, v) => (!v || v === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(tr('两次输入的密码不一致')))),
                    }),
                  ]}
                >
                  <Input.Password placeholder={tr('请再次输入新密码')} autoComplete="new-password" />
                </Form.Item>
                <Button type="primary" htmlType="submit" block loading={busy}>
                  {tr('重置密码')}
                </Button>
              </>
            )}
            <Button type="link" block onClick={() => setStep(0)} style={{ marginTop: 8 }}>
              {tr('上一步')}
            </Button>
          </Form>
        )}
        {step === 2 && (
          <Result
            status="success"
            title={tr('密码重置成功')}
            subTitle={tr('请使用新密码登录')}
            extra={
              <Button type="primary" onClick={() => navigate('/login')}>
                {tr('返回登录')}
              </Button>
            }
          />
        )}
        {step < 2 && (
          <div className="login-links">
            <Link to="/login">{tr('返回登录')}</Link>
          </div>
        )}
      </Card>
    </div>
  )
}

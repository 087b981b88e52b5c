import { useState } from 'react'
import { App, Avatar, Button, Card, Col, Descriptions, Form, Input, Row, Tabs, Typography } from 'antd'
import { UserOutlined } from '@ant-design/icons'
import { useSWRConfig } from 'swr'
import { useMeta } from '../api/meta.js'
import { useLocale } from '../i18n/current-locale.js'
import { patterns } from '../../shared/metadata/patterns.js'
import ListView from '../runtime/ListView.js'
import { term } from '../i18n/term.js'
import type { ListSource } from '../runtime/list-source.js'
import { useTr } from '../i18n/use-tr.js'
import { isCallKey, useCall } from '../app/use-call.js'
import { call } from '../api/call.js'
import { type OpLogRow, auth, center } from '../../shared/contracts/auth.js'

const text = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v))

const useCenterInfo = () => useCall(center.info, undefined)

function ContactForm({ field, label, current, onSaved }: { field: 'email' | 'telephone'; label: string; current: unknown; onSaved: () => void }) {
  const tr = useTr()
  const { message } = App.useApp()
  const [busy, setBusy] = useState(false)
  const rule = field === 'email' ? patterns.email : patterns.mobile
  const submit = async (values: Record<string, string>) => {
    setBusy(true)
    try {
      await (field === 'email' ? call(center.contact.email, { email: values.email.trim() }) : call(center.contact.telephone, { telephone: values.telephone.trim() }))
      void message.success(tr('修改成功！'))
      onSaved()
    } catch {
      // shown by the global error handler
    } finally {
      setBusy(false)
    }
  }
  return (
    <Form layout="vertical" style={{ maxWidth: 420 }} onFinish={(v: Record<string, string>) => void submit(v)} initialValues={{ [field]: typeof current === 'string' ? current : '' }} key={String(current ?? '')}>
      <Form.Item label={tr(`当前${label}`)}>
        <Typography.Text>{text(current)}</Typography.Text>
      </Form.Item>
      <Form.Item
        name={field}
        label={tr(`新${label}`)}
        rules={[
          { required: true, whitespace: true, message: tr(`请输入新${label}`) },
          { pattern: rule.regex, message: rule.message },
        ]}
      >
        <Input placeholder={tr(`请输入新${label}`)} aria-label={tr(`新${label}`)} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {tr('保存')}
      </Button>
    </Form>
  )
}

function PasswordForm() {
  const tr = useTr()
  const { message } = App.useApp()
  const [form] = Form.useForm()
  const [busy, setBusy] = useState(false)
  const submit = async (values: { oldPsw: string; newPsw: string; confirmPsw: string }) => {
    setBusy(true)
    try {
      await call(center.password, values)
      void message.success(tr('密码修改成功！'))
      form.resetFields()
    } catch {
      // shown by the global error handler
    } finally {
      setBusy(false)
    }
  }
  return (
    <Form form={form} layout="vertical" style={{ maxWidth: 420 }} onFinish={(v: { oldPsw: string; newPsw: string; confirmPsw: string }) => void submit(v)}>
      <Form.Item name="oldPsw" label={tr('旧密码')} rules={[{ required: true, message: tr('请输入旧密码') }]}>
        <Input.Password placeholder={tr('请输入旧密码')} aria-label={tr('旧密码')} autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="newPsw" label={tr('新密码')} rules={[{ required: true, message: tr('请输入新密码') }]}>
        <Input.Password placeholder={tr('请输入新密码')} aria-label={tr('新密码')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPsw"
        label={tr('确认密码')}
        dependencies={['newPsw']}
        rules={[
          { required: true, message: tr('请再次输入新密码') },
          ({ getFieldValue }) => ({
            validator: (_, v) => (!v || v === getFieldValue('newPsw') ? Promise.resolve() : Promise.reject(new Error(tr('两次输入的密码不一致')))),
          }),
        ]}
      >
        <Input.Password placeholder={tr('请再次输入新密码')} aria-label={tr('确认密码')} autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {tr('修改密码')}
      </Button>
    </Form>
  )
}

/** The caller's own operation log, newest first. */
const OWN_OPLOG: ListSource = {
  name: 'own-oplog',
  call: center.oplog,
  query: [],
  columns: [
    { key: 'name', title: term('日志名称') },
    { key: 'logType', title: term('类别'), width: 120 },
    { key: 'ip', title: term('IP地址'), width: 160 },
    { key: 'createTime', title: term('操作时间'), width: 180 },
  ],
  rowKey: ['id', 'createTime', 'name'],
  seq: false,
  size: 'small',
}

function OwnOpLog() {
  const meta = useMeta()
  const locale = useLocale()
  return <ListView<OpLogRow> source={OWN_OPLOG} render={{ logType: (row: OpLogRow) => meta?.enums.label('OP_LOG_TYPE', row.logType, locale) ?? text(row.logType) }} />
}

/** Personal centre: own information, e-mail, telephone, password and operation log. */
export default function Profile() {
  const tr = useTr()
  const { data: info, mutate } = useCenterInfo()
  const { mutate: mutateGlobal } = useSWRConfig()
  const meta = useMeta()
  const locale = useLocale()
  const refresh = () => {
    void mutate()
    void mutateGlobal((key) => isCallKey(key, auth.info.path))
  }
  return (
    <Row gutter={16} className="profile-page">
      <Col xs={24} lg={8}>
        <Card title={tr('个人信息')} loading={!info}>
          <div className="profile-avatar">
            <Avatar size={80} icon={<UserOutlined />} style={{ backgroundColor: '#1890ff' }} />
            <Typography.Title level={4} style={{ margin: '12px 0 0' }}>
              {info?.name}
            </Typography.Title>
          </div>
          <Descriptions column={1} size="small" style={{ marginTop: 16 }}>
            <Descriptions.Item label={tr('用户名')}>{text(info?.username)}</Descriptions.Item>
            <Descriptions.Item label={tr('编号')}>{text(info?.code)}</Descriptions.Item>
            <Descriptions.Item label={tr('性别')}>{meta?.enums.label('GENDER', info?.gender, locale) ?? text(info?.gender)}</Descriptions.Item>
            <Descriptions.Item label={tr('邮箱')}>{text(info?.email)}</Descriptions.Item>
            <Descriptions.Item label={tr('联系电话')}>{text(info?.telephone)}</Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
      <Col xs={24} lg={16}>
        <Card>
          <Tabs
            items={[
              { key: 'email', label: tr('修改邮箱'), children: <ContactForm field="email" label={tr('邮箱')} current={info?.email} onSaved={refresh} /> },
              { key: 'telephone', label: tr('修改手机号'), children: <ContactForm field="telephone" label={tr('手机号')} current={info?.telephone} onSaved={refresh} /> },
              { key: 'password', label: tr('修改密码'), children: <PasswordForm /> },
              { key: 'oplog', label: tr('操作日志'), children: <OwnOpLog /> },
            ]}
          />
        </Card>
      </Col>
    </Row>
  )
}

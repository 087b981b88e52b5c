import { useMemo, useState } from 'react'
import { Alert, Button, Form, Input, Radio, Space, Spin, theme, Tree, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { call } from '../../api/call.js'
import { useCall } from '../../app/use-call.js'
import DateInput from '../../components/DateInput.js'
import { TreeToolbar } from '../../components/TreeToolbar.js'
import GuardedModal from '../../runtime/GuardedModal.js'
import PickerInput from '../../runtime/picker/PickerInput.js'
import { useTr } from '../../i18n/use-tr.js'
import { apiTokens, type MadeApiToken } from '../../../shared/contracts/api-tokens.js'
import { allNodes, buildKeyTree, filterKeyTree, keyMarks, toggleKeys, type KeyNode } from './key-tree.js'

/** The expiries offered at one click, in days. */
const PRESET_DAYS = [30, 90, 365] as const
const CUSTOM = 'custom'
const TREE_HEIGHT = 320

interface Values {
  name?: string
  userId?: string
  expiry: number | typeof CUSTOM
  expireDate?: Dayjs | null
}

export interface NewTokenDialogProps {
  /** A holder of 管理其他用户的令牌 may make the token for another user (a service user). */
  forOthers: boolean
  onMade: (made: MadeApiToken & { name: string }) => void
  onClose: () => void
}

/**
 * 新建令牌: a name, an expiry (30/90/365 days or a day of one's choosing, valid to its end) and some of
 * the keys of the token's user, chosen in the menu's tree; the server checks them all again.
 */
export default function NewTokenDialog({ forOthers, onMade, onClose }: NewTokenDialogProps) {
  const tr = useTr()
  const { token: design } = theme.useToken()
  const [form] = Form.useForm<Values>()
  const userId = Form.useWatch('userId', form) as string | undefined
  const expiry = Form.useWatch('expiry', form) as Values['expiry'] | undefined
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  const [keysError, setKeysError] = useState(false)
  const [saving, setSaving] = useState(false)
  const [dirty, setDirty] = useState(false)
  const { data: answer, error } = useCall(apiTokens.keys, userId ? { userId } : {})
  const tree = useMemo(() => (answer ? buildKeyTree(answer, tr, tr('其他权限')) : []), [answer, tr])
  const [search, setSearch] = useState('')
  const shownTree = useMemo(() => filterKeyTree(tree, search), [tree, search])
  const marks = useMemo(() => keyMarks(tree, chosen), [tree, chosen])
  const parents = useMemo(() => allNodes(shownTree).filter((n) => n.children?.length).map((n) => n.key), [shownTree])
  const [expanded, setExpanded] = useState<string[] | undefined>()
  // A search opens what it found.
  const expandedKeys = expanded ?? (search.trim() ? parents : [])

  const submit = async () => {
    const values = await form.validateFields()
    if (!chosen.size) {
      setKeysError(true)
      return
    }
    const expireTime =
      values.expiry === CUSTOM ? values.expireDate!.format('YYYY-MM-DD') : dayjs().add(values.expiry, 'day').format('YYYY-MM-DD HH:mm:ss')
    setSaving(true)
    try {
      const name = values.name!.trim()
      const made = await call(apiTokens.create, { name, expireTime, permissions: [...chosen].sort(), ...(values.userId ? { userId: values.userId } : {}) })
      onMade({ ...made, name })
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setSaving(false)
    }
  }

  return (
    <GuardedModal
      open
      dirty={dirty}
      className="api-token-new"
      title={tr('新建令牌')}
      width={720}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {tr('取消')}
        </Button>,
        <Button key="ok" type="primary" loading={saving} onClick={() => void submit().catch(() => {})}>
          {tr('创建')}
        </Button>,
      ]}
    >
      <Form<Values> form={form} layout="vertical" initialValues={{ expiry: 90 }} onValuesChange={() => setDirty(true)}>
        <Form.Item name="name" label={tr('令牌名称')} rules={[{ required: true, whitespace: true, message: tr('请输入令牌名称') }, { max: 64, message: tr('令牌名称不能超过64个字符') }]}>
          <Input placeholder={tr('例如：网店订单同步')} maxLength={64} />
        </Form.Item>
        {forOthers && (
          <Form.Item name="userId" label={tr('所属用户')} extra={tr('不选则为自己创建；为服务用户创建时，只能选择该用户自己的权限')}>
            <PickerInput
              kind="user"
              aria-label={tr('所属用户')}
              placeholder={tr('请选择用户')}
              onChange={() => {
                setChosen(new Set())
                setExpanded(undefined)
              }}
            />
          </Form.Item>
        )}
        <Form.Item label={tr('有效期')} required>
          <Space wrap>
            <Form.Item name="expiry" noStyle>
              <Radio.Group aria-label={tr('有效期')}>
                {PRESET_DAYS.map((d) => (
                  <Radio.Button key={d} value={d}>
                    {tr(`${d}天`)}
                  </Radio.Button>
                ))}
                <Radio.Button value={CUSTOM}>{tr('指定日期')}</Radio.Button>
              </Radio.Group>
            </Form.Item>
            {expiry === CUSTOM && (
              <Form.Item name="expireDate" noStyle rules={[{ required: true, message: tr('请选择令牌的有效期') }]}>
                <DateInput aria-label={tr('有效期至')} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
              </Form.Item>
            )}
            {typeof expiry === 'number' && <Typography.Text type="secondary">{tr(`有效期至 ${dayjs().add(expiry, 'day').format('YYYY-MM-DD HH:mm')}`)}</Typography.Text>}
          </Space>
        </Form.Item>
        <Form.Item
          label={tr(`权限（已选 ${chosen.size} 项）`)}
          required
          validateStatus={keysError && !chosen.size ? 'error' : undefined}
          help={keysError && !chosen.size ? tr('请选择令牌的权限') : tr('令牌只能调用所选权限的接口，且不超过所属用户自己的权限')}
        >
          {error ? (
            <Alert type="error" showIcon message={String(error instanceof Error ? error.message : error)} />
          ) : !answer ? (
            <Spin style={{ display: 'block', padding: 24 }} />
          ) : (
            <div style={{ border: `1px solid ${design.colorBorderSecondary}`, borderRadius: design.borderRadius, padding: '4px 0' }}>
              <Input.Search
                allowClear
                size="small"
                placeholder={tr('输入菜单名称或权限标识定位')}
                aria-label={tr('定位权限')}
                style={{ padding: '4px 8px' }}
                onSearch={(text) => {
                  setSearch(text)
                  setExpanded(undefined)
                }}
                onChange={(e) => {
                  if (!e.target.value) setSearch('')
                }}
              />
              <Tree<KeyNode>
                className="api-token-keys"
                checkable
                checkStrictly
                selectable={false}
                blockNode
                height={TREE_HEIGHT}
                treeData={shownTree}
                checkedKeys={marks}
                expandedKeys={expandedKeys}
                onExpand={(keys) => setExpanded(keys.map(String))}
                onCheck={(_, info) => {
                  setChosen((current) => toggleKeys(current, info.node, info.checked))
                  setDirty(true)
                }}
                titleRender={(node) => (
                  <span className="api-token-key" data-key={node.permission ?? undefined}>
                    {node.title}
                    {node.permission && (
                      <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
                        {node.permission}
                      </Typography.Text>
                    )}
                  </span>
                )}
              />
              <TreeToolbar
                style={{ padding: '4px 8px' }}
                onCheckAll={() => setChosen(new Set(answer.keys))}
                onCheckNone={() => setChosen(new Set())}
                onExpand={() => setExpanded(parents)}
                onCollapse={() => setExpanded([])}
              />
            </div>
          )}
        </Form.Item>
      </Form>
    </GuardedModal>
  )
}

import { useState } from 'react'
import { Alert, Button, Form, Input, Select, Tabs, Space, Tag } from 'antd'
import GuardedModal from '../../runtime/GuardedModal.js'
import { PlusOutlined } from '@ant-design/icons'
import { useNavigate } from 'react-router-dom'
import { useMeta, type Meta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import { FeedbackProvider, useFeedback } from '../../components/feedback.js'
import ListView from '../../runtime/ListView.js'
import { CUSTOMER_VIEW } from '../../views/crm-customers.js'
import { customerPaths, SCOPE } from './customer-api.js'
import { call } from '../../api/call.js'
import { useCall } from '../../app/use-call.js'
import { crmCustomers, type CustomerRow } from '../../../shared/contracts/crm-customers.js'
import ActionFormModal from './ActionFormModal.js'
import { term, useTr } from '../../i18n/use-tr.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import { useNarrowScreen } from '../../app/narrow-screen.js'

/** The 锁定 column: a tag on locked customers only. */
const lockedCell = (row: CustomerRow) => (row.locked ? <Tag color="gold">{term('已锁定')}</Tag> : null)

/**
 * 客户管理 (/crm/customer/index, views/crm-customers.ts): 我负责的 / 本部门的 / 全部 tabs as the keys allow,
 * with 新增客户, 转移 (to another salesperson; contacts follow), 放入公海 (with the reason), 锁定 / 解锁 and 写跟进.
 * Its H5 variant (/crm/customer/h5), and the list itself in a phone-sized window, open the H5 customer pages.
 */
export default function CustomerListPage({ phone = false }: { phone?: boolean }) {
  const meta = useMeta()
  return <FeedbackProvider>{meta ? <CustomerList meta={meta} phone={phone} /> : null}</FeedbackProvider>
}

function CustomerList({ meta, phone }: { meta: Meta; phone: boolean }) {
  const tr = useTr()
  const narrow = useNarrowScreen()
  const h5 = phone || narrow
  const paths = {
    add: h5 ? customerPaths.h5Add : customerPaths.add,
    detail: h5 ? customerPaths.h5Detail : customerPaths.detail,
    modify: h5 ? customerPaths.h5Modify : customerPaths.modify,
  }
  const can = usePermission()
  const navigate = useNavigate()
  const { message } = useFeedback()
  const [scope, setScope] = useState<number>(SCOPE.MINE)
  const [version, setVersion] = useState(0)
  // The customers a dialog acts on, chosen when it opened.
  const [dialog, setDialog] = useState<{ kind: 'transfer' | 'release'; ids: string[]; done: () => void } | null>(null)
  const [following, setFollowing] = useState<string | null>(null)
  const { data: remind } = useCall(crmCustomers.returnRemind, undefined, { swr: { revalidateOnFocus: false } })

  const act = async (work: () => Promise<unknown>, done: string, clear: () => void) => {
    try {
      await work()
      message.success(done)
      clear()
      setDialog(null)
      setVersion((v) => v + 1)
    } catch {
      // The api layer has shown the server's message.
    }
  }
  const tabs = [
    { key: String(SCOPE.MINE), label: tr('我负责的客户') },
    ...(can([PERMISSION.crm.customer.dept, PERMISSION.crm.customer.all]) ? [{ key: String(SCOPE.DEPT), label: tr('本部门的客户') }] : []),
    ...(can(PERMISSION.crm.customer.all) ? [{ key: String(SCOPE.ALL), label: tr('全部客户') }] : []),
  ]
  const ids = dialog?.ids ?? []
  return (
    <ListView<CustomerRow>
      source={CUSTOMER_VIEW}
      params={{ scope }}
      version={version}
      selectable
      header={
        <>
          {remind && remind.length > 0 && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              message={tr(`您有${remind.length}个客户即将被自动收回公海：${remind.slice(0, 5).map((r) => `${r.name}（${r.returnDate}）`).join('、')}${remind.length > 5 ? ' 等' : ''}，请及时跟进`)}
            />
          )}
          <Tabs activeKey={String(scope)} items={tabs} onChange={(k) => setScope(Number(k))} />
        </>
      }
      render={{
        name: (r) => <a onClick={() => navigate(paths.detail(r.id))}>{r.name}</a>,
        locked: lockedCell,
      }}
      rowActionsWidth={180}
      cardTitle="name"
      renderRowActions={(r) => (
        <Space size={4}>
          <a onClick={() => navigate(paths.detail(r.id))}>{tr('详情')}</a>
          {can(PERMISSION.crm.customer.modify) && <a onClick={() => navigate(paths.modify(r.id))}>{tr('修改')}</a>}
          {can(PERMISSION.crm.action.add) && r.ownerId && <a onClick={() => setFollowing(r.id)}>{tr('写跟进')}</a>}
        </Space>
      )}
      renderToolbar={({ selected, clearSelection }) => [
        can(PERMISSION.crm.customer.add) && (
          <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => navigate(paths.add)}>
            {tr('新增客户')}
          </Button>
        ),
        can(PERMISSION.crm.customer.transfer) && (
          <Button key="transfer" disabled={!selected.length} onClick={() => setDialog({ kind: 'transfer', ids: selected, done: clearSelection })}>
            {tr('转移')}
          </Button>
        ),
        can(PERMISSION.crm.customer.release) && (
          <Button key="release" disabled={!selected.length} onClick={() => setDialog({ kind: 'release', ids: selected, done: clearSelection })}>
            {tr('放入公海')}
          </Button>
        ),
        can(PERMISSION.crm.customer.lock) && (
          <Button key="lock" disabled={!selected.length} onClick={() => act(() => call(crmCustomers.lock, { ids: selected, locked: true }), tr('已锁定'), clearSelection)}>
            {tr('锁定')}
          </Button>
        ),
        can(PERMISSION.crm.customer.lock) && (
          <Button key="unlock" disabled={!selected.length} onClick={() => act(() => call(crmCustomers.lock, { ids: selected, locked: false }), tr('已解锁'), clearSelection)}>
            {tr('解锁')}
          </Button>
        ),
      ]}
      after={
        <>
          <TransferDialog
            open={dialog?.kind === 'transfer'}
            count={ids.length}
            onClose={() => setDialog(null)}
            onOk={(to, reason) => dialog && act(() => call(crmCustomers.transfer, { ids, ownerId: to, reason }), tr('转移成功'), dialog.done)}
          />
          <ReasonDialog
            open={dialog?.kind === 'release'}
            count={ids.length}
            onClose={() => setDialog(null)}
            onOk={(reason) => dialog && act(() => call(crmCustomers.release, { ids, reason }), tr('已放入公海'), dialog.done)}
          />
          <ActionFormModal
            meta={meta}
            open={Boolean(following)}
            customerId={following ?? undefined}
            onClose={() => setFollowing(null)}
            onSaved={() => (setFollowing(null), setVersion((v) => v + 1))}
          />
        </>
      }
    />
  )
}

function TransferDialog({ open, count, onClose, onOk }: { open: boolean; count: number; onClose: () => void; onOk: (to: string, reason: string) => void }) {
  const tr = useTr()
  const [form] = Form.useForm<{ ownerId: string; reason?: string }>()
  const [word, setWord] = useState('')
  const { data } = useCall(open && crmCustomers.owners, { name: word })
  return (
    <GuardedModal title={tr(`转移客户（已选${count}个）`)} open={open} onCancel={onClose} onOk={async () => {
      const v = await form.validateFields()
      onOk(v.ownerId, v.reason ?? '')
    }} okText={tr('确定')} cancelText={tr('取消')} destroyOnHidden>
      <Form form={form} name="crmTransfer" layout="vertical" preserve={false}>
        <Form.Item name="ownerId" label={tr('接收人')} rules={[{ required: true, message: tr('请选择接收人') }]}>
          <Select showSearch filterOption={false} onSearch={setWord} options={(data ?? []).map((u) => ({ value: u.id, label: `${u.name}（${u.code}）` }))} placeholder={tr('输入姓名或编号搜索')} />
        </Form.Item>
        <Form.Item name="reason" label={tr('转移原因')} rules={[{ max: 200, message: tr('原因不能超过200个字符') }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <Alert type="info" showIcon message={tr('客户的联系人将一并转移给接收人')} />
      </Form>
    </GuardedModal>
  )
}

/** 放入公海: the reason is required and kept in the owner history. */
export function ReasonDialog({ open, count, onClose, onOk }: { open: boolean; count: number; onClose: () => void; onOk: (reason: string) => void }) {
  const tr = useTr()
  const [form] = Form.useForm<{ reason: string }>()
  return (
    <GuardedModal title={tr(`放入公海（已选${count}个）`)} open={open} onCancel={onClose} onOk={async () => onOk((await form.validateFields()).reason.trim())} okText={tr('确定')} cancelText={tr('取消')} destroyOnHidden>
      <Form form={form} name="crmRelease" layout="vertical" preserve={false}>
        <Form.Item name="reason" label={tr('放入公海原因')} rules={[{ required: true, whitespace: true, message: tr('请输入放入公海的原因') }, { max: 200, message: tr('原因不能超过200个字符') }]}>
          <Input.TextArea rows={3} placeholder={tr('例如：客户暂无采购需求')} />
        </Form.Item>
      </Form>
    </GuardedModal>
  )
}

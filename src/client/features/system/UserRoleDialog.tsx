import { useEffect, useMemo, useState } from 'react'
import { Alert, Input, Modal, Table, Tag, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import type { EntityRow } from '../../runtime/entity-api.js'
import { useSaveDialog } from './use-save-dialog.js'
import { nameOf, truthy, useLoad } from './use-load.js'
import { useTr } from '../../i18n/use-tr.js'
import { call } from '../../api/call.js'
import { type RoleChoice, system } from '../../../shared/contracts/system.js'

export interface UserRoleDialogProps {
  user: EntityRow
  /** Called after the closing animation; the list drops the dialog. */
  onClose: () => void
}

/** 用户授权: the roles the user holds, chosen in a checkbox table and saved with `/system/user/role/setting`. */
export default function UserRoleDialog({ user, onClose }: UserRoleDialogProps) {
  const tr = useTr()
  const [filter, setFilter] = useState('')
  const [chosen, setChosen] = useState<string[]>([])
  const { data: roles, error, loading } = useLoad(`user-roles:${user.id}`, () =>
    call(system.userRoles, { userId: user.id }),
  )

  useEffect(() => {
    if (roles) setChosen(roles.filter((r) => r.selected).map((r) => String(r.id)))
  }, [roles])

  const shown = useMemo(() => {
    const text = filter.trim().toLowerCase()
    if (!roles || !text) return roles ?? []
    return roles.filter((r) => `${r.code} ${r.name}`.toLowerCase().includes(text))
  }, [roles, filter])

  const columns: ColumnsType<RoleChoice> = [
    { key: 'code', dataIndex: 'code', title: tr('编号'), width: 120 },
    { key: 'name', dataIndex: 'name', title: tr('名称') },
    {
      key: 'permission',
      dataIndex: 'permission',
      title: tr('权限'),
      width: 120,
      render: (v: unknown) => (v ? <Typography.Text code>{String(v)}</Typography.Text> : null),
    },
    {
      key: 'available',
      dataIndex: 'available',
      title: tr('状态'),
      width: 80,
      align: 'center',
      render: (v: unknown) => (truthy(v) ? <Tag color="success">{tr('启用')}</Tag> : <Tag color="error">{tr('停用')}</Tag>),
    },
  ]

  const { modalProps } = useSaveDialog(() => call(system.setUserRoles, { userIds: [user.id], roleIds: chosen }), onClose)

  return (
    <Modal
      {...modalProps}
      title={tr(`用户授权 - ${nameOf(user)}`)}
      width={720}
      okButtonProps={{ disabled: loading || Boolean(error) }}
    >
      {error ? (
        <Alert type="error" showIcon message={error} />
      ) : (
        <>
          <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 12, marginBottom: 12 }}>
            <Input.Search
              allowClear
              placeholder={tr('输入编号或名称筛选角色')}
              aria-label={tr('筛选角色')}
              style={{ maxWidth: 280 }}
              onChange={(e) => setFilter(e.target.value)}
              onSearch={setFilter}
            />
            <Typography.Text type="secondary">{tr(`已选 ${chosen.length} 个角色`)}</Typography.Text>
          </div>
          <Table<RoleChoice>
            rowKey={(r) => String(r.id)}
            size="small"
            bordered
            loading={loading}
            columns={columns}
            dataSource={shown}
            pagination={false}
            scroll={{ y: 400 }}
            rowSelection={{
              selectedRowKeys: chosen,
              preserveSelectedRowKeys: true,
              columnWidth: 40,
              onChange: (keys) => setChosen(keys.map(String)),
            }}
            onRow={(r) => ({
              // A click anywhere on the row toggles it, not just the small checkbox.
              onClick: (e) => {
                // The checkbox cell has its own handler; toggling here too would undo it.
                if ((e.target as HTMLElement).closest('.ant-table-selection-column')) return
                const id = String(r.id)
                setChosen((c) => (c.includes(id) ? c.filter((k) => k !== id) : [...c, id]))
              },
              style: { cursor: 'pointer' },
            })}
            locale={{ emptyText: tr('暂无角色') }}
          />
        </>
      )}
    </Modal>
  )
}

import { useEffect, useMemo, useState } from 'react'
import { Alert, Checkbox, Col, Divider, Modal, Row, Spin, Typography } from 'antd'
import type { EntityRow } from '../../runtime/entity-api.js'
import { useSaveDialog } from './use-save-dialog.js'
import { nameOf, useLoad } from './use-load.js'
import { useTr } from '../../i18n/use-tr.js'
import { call } from '../../api/call.js'
import { type ModuleRow, system } from '../../../shared/contracts/system.js'

/** A platform module as `/system/module/query` answers it. */
export interface TenantModuleDialogProps {
  tenant: EntityRow
  onClose: () => void
}

/** Numeric ids in their natural order ("2" before "10"). */
const byId = (a: ModuleRow, b: ModuleRow) => String(a.id).localeCompare(String(b.id), 'zh-CN', { numeric: true })

/** 授权模块: which platform modules the tenant may use; menus of other modules are hidden from it. */
export default function TenantModuleDialog({ tenant, onClose }: TenantModuleDialogProps) {
  const tr = useTr()
  const [chosen, setChosen] = useState<string[]>([])
  const { data, error, loading } = useLoad(`tenant-modules:${tenant.id}`, async () => {
    const [modules, granted] = await Promise.all([
      call(system.modules),
      call(system.tenantModules, { tenantId: tenant.id }),
    ])
    return { modules: [...modules].sort(byId), granted: granted.map(String) }
  })
  const allIds = useMemo(() => (data?.modules ?? []).map((m) => String(m.id)), [data])

  useEffect(() => {
    if (data) setChosen(data.granted.filter((id) => allIds.includes(id)))
  }, [data, allIds])

  const { modalProps } = useSaveDialog(() => call(system.setTenantModules, { tenantId: tenant.id, moduleIds: chosen }), onClose)

  const all = allIds.length > 0 && chosen.length === allIds.length

  return (
    <Modal
      {...modalProps}
      title={tr(`授权模块 - ${nameOf(tenant)}`)}
      width={640}
      okButtonProps={{ disabled: loading || Boolean(error) }}
    >
      {error ? (
        <Alert type="error" showIcon message={error} />
      ) : loading || !data ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : (
        <>
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <Checkbox
              checked={all}
              indeterminate={chosen.length > 0 && !all}
              onChange={(e) => setChosen(e.target.checked ? allIds : [])}
            >
              {tr('全选')}
            </Checkbox>
            <Typography.Text type="secondary">
              {tr(`已选 ${chosen.length} / ${allIds.length} 个模块`)}
            </Typography.Text>
          </div>
          <Divider style={{ margin: '12px 0' }} />
          <Checkbox.Group value={chosen} onChange={(v) => setChosen(v.map(String))} style={{ width: '100%' }}>
            <Row gutter={[12, 12]} style={{ width: '100%' }}>
              {data.modules.map((m) => (
                <Col key={m.id} span={8}>
                  <Checkbox value={String(m.id)} title={m.description ?? undefined}>
                    {m.name}
                  </Checkbox>
                </Col>
              ))}
            </Row>
          </Checkbox.Group>
        </>
      )}
    </Modal>
  )
}

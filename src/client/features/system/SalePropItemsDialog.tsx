import { useMemo, useState } from 'react'
import { Button, Modal, Result, Spin } from 'antd'
import { useMeta } from '../../api/meta.js'
import { buildEntityModel, type EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EntityRow } from '../../runtime/entity-api.js'
import EntityFormModal, { type FormDialog } from '../../runtime/EntityFormModal.js'
import ListView from '../../runtime/ListView.js'
import { nameOf } from './use-load.js'

export const SALE_PROP_ITEM = 'salePropItem'
const GROUP_FIELD = 'groupId'

/**
 * The sale-property entity narrowed to one group, through its own metadata: the list's 销售属性组
 * condition starts at (and resets to) the group, the add form starts with it, and the group column
 * is left out because every row shows the same group. ListView takes no fixed filter, so this is
 * what narrows the list; the condition stays visible in the search form.
 */
export function itemsOfGroup(items: EntityModel, groupId: string): EntityModel {
  const file = items.file
  const list = file.views?.list
  const field = file.fields[GROUP_FIELD]
  if (!list || !field) return items
  const query = list.query ?? []
  const hasGroupParam = query.some((q) => q.field === GROUP_FIELD)
  return buildEntityModel({
    ...file,
    fields: { ...file.fields, [GROUP_FIELD]: { ...field, default: groupId } },
    views: {
      ...file.views,
      list: {
        ...list,
        columns: list.columns.filter((c) => (typeof c === 'string' ? c : c.field) !== GROUP_FIELD),
        query: hasGroupParam
          ? query.map((q) => (q.field === GROUP_FIELD ? { ...q, op: 'eq' as const, default: groupId } : q))
          : [{ field: GROUP_FIELD, op: 'eq', default: groupId }, ...query],
      },
    },
  })
}

export interface SalePropItemsDialogProps {
  group: EntityRow
  onClose: () => void
}

/** 销售属性 of a sale-property group: the generic list and form of salePropItem, narrowed to the group. */
export default function SalePropItemsDialog({ group, onClose }: SalePropItemsDialogProps) {
  const meta = useMeta()
  const [open, setOpen] = useState(true)
  const [form, setForm] = useState<FormDialog | null>(null)
  const [version, setVersion] = useState(0)
  const entity = useMemo(() => {
    if (!meta) return undefined
    try {
      return itemsOfGroup(meta.entity(SALE_PROP_ITEM), String(group.id))
    } catch {
      return null
    }
  }, [meta, group.id])

  return (
    <Modal
      open={open}
      title={`销售属性 - ${nameOf(group)}`}
      width="80%"
      maskClosable={false}
      onCancel={() => setOpen(false)}
      afterClose={onClose}
      footer={<Button onClick={() => setOpen(false)}>关闭</Button>}
      styles={{ body: { minHeight: 320 } }}
    >
      {entity === undefined ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : entity === null ? (
        <Result status="404" title="404" subTitle={`未知的业务对象：${SALE_PROP_ITEM}`} />
      ) : (
        <>
          <ListView meta={meta!} entity={entity} version={version} onOpen={(mode, row) => setForm({ mode, id: row?.id })} />
          <EntityFormModal
            meta={meta!}
            entity={entity}
            dialog={form}
            onClose={() => setForm(null)}
            onSaved={() => {
              setForm(null)
              setVersion((v) => v + 1)
            }}
          />
        </>
      )}
    </Modal>
  )
}

import { useMemo, useState } from 'react'
import { Button, Modal, Result, Spin } from 'antd'
import { useMeta } from '../../api/meta.js'
import { buildEntityModel, type EntityModel } from '../../../shared/metadata/entity-model.js'
import type { EntityRow } from '../../runtime/entity-api.js'
import EntityFormModal, { type FormDialog } from '../../runtime/EntityFormModal.js'
import ListView from '../../runtime/ListView.js'

export const DIC_ITEM = 'dicItem'
const DIC_FIELD = 'dicId'

/**
 * The dictionary-item entity narrowed to one dictionary, through its own metadata: the add form
 * starts with the dictionary, and the dictionary column and condition are left out because every
 * row has the same one (the list sends it as a fixed condition).
 */
export function itemsOfDic(items: EntityModel, dicId: string): EntityModel {
  const file = items.file
  const list = file.views?.list
  const field = file.fields[DIC_FIELD]
  if (!list || !field) return items
  return buildEntityModel({
    ...file,
    fields: { ...file.fields, [DIC_FIELD]: { ...field, default: dicId } },
    views: {
      ...file.views,
      list: {
        ...list,
        columns: list.columns.filter((c) => (typeof c === 'string' ? c : c.field) !== DIC_FIELD),
        query: (list.query ?? []).filter((q) => q.field !== DIC_FIELD),
      },
    },
  })
}

const labelOf = (row: EntityRow) => String(row.name ?? row.code ?? row.id)

export interface DicItemsDialogProps {
  dic: EntityRow
  onClose: () => void
}

/** 字典值 of a dictionary: the generic list and form of dicItem, fixed to the dictionary. */
export default function DicItemsDialog({ dic, onClose }: DicItemsDialogProps) {
  const meta = useMeta()
  const [open, setOpen] = useState(true)
  const [form, setForm] = useState<FormDialog | null>(null)
  const [version, setVersion] = useState(0)
  const dicId = String(dic.id)
  const fixedQuery = useMemo(() => ({ [DIC_FIELD]: dicId }), [dicId])
  const entity = useMemo(() => {
    if (!meta) return undefined
    try {
      return itemsOfDic(meta.entity(DIC_ITEM), dicId)
    } catch {
      return null
    }
  }, [meta, dicId])

  return (
    <Modal
      open={open}
      title={`字典值 - ${labelOf(dic)}`}
      width="80%"
      maskClosable={false}
      onCancel={() => setOpen(false)}
      afterClose={onClose}
      footer={<Button onClick={() => setOpen(false)}>关闭</Button>}
      styles={{ body: { minHeight: 320 } }}
      className="dic-items-dialog"
    >
      {entity === undefined ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : entity === null ? (
        <Result status="404" title="404" subTitle={`未知的业务对象：${DIC_ITEM}`} />
      ) : (
        <>
          <ListView
            meta={meta!}
            entity={entity}
            version={version}
            fixedQuery={fixedQuery}
            onOpen={(mode, row) => setForm({ mode, id: row?.id })}
          />
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

import { useMemo, useState } from 'react'
import { Button, Modal, Result, Spin } from 'antd'
import { useMeta } from '../api/meta.js'
import { buildEntityModel, type EntityModel } from '../../shared/metadata/entity-model.js'
import EntityFormModal, { type FormDialog } from './EntityFormModal.js'
import ListView from './ListView.js'
import { useTr } from '../i18n/use-tr.js'

/**
 * A child entity narrowed to one parent through its own metadata: the list sends the parent as a
 * fixed condition, the add form starts with it, and the parent column and condition are left out
 * because every row has the same one.
 */
export function childrenOf(children: EntityModel, parentField: string, parentId: string): EntityModel {
  const file = children.file
  const list = file.views?.list
  const field = file.fields[parentField]
  if (!list || !field) return children
  return buildEntityModel({
    ...file,
    fields: { ...file.fields, [parentField]: { ...field, default: parentId } },
    views: {
      ...file.views,
      list: {
        ...list,
        columns: list.columns.filter((c) => (typeof c === 'string' ? c : c.field) !== parentField),
        query: (list.query ?? []).filter((q) => q.field !== parentField),
      },
    },
  })
}

export interface ChildrenDialogProps {
  title: string
  /** The child entity, e.g. dicItem. */
  entityName: string
  /** Its ref field to the parent, e.g. dicId. */
  parentField: string
  parentId: string
  onClose: () => void
  className?: string
}

/** The generic list and form of a child entity, fixed to one parent row (字典值, 销售属性 …). */
export default function ChildrenDialog({ title, entityName, parentField, parentId, onClose, className }: ChildrenDialogProps) {
  const tr = useTr()
  const meta = useMeta()
  const [open, setOpen] = useState(true)
  const [form, setForm] = useState<FormDialog | null>(null)
  const [version, setVersion] = useState(0)
  const fixedQuery = useMemo(() => ({ [parentField]: parentId }), [parentField, parentId])
  const child = meta?.entityOrUndefined(entityName)
  const entity = useMemo(() => child && childrenOf(child, parentField, parentId), [child, parentField, parentId])

  return (
    <Modal
      open={open}
      title={title}
      width="80%"
      maskClosable={false}
      onCancel={() => setOpen(false)}
      afterClose={onClose}
      footer={<Button onClick={() => setOpen(false)}>{tr('关闭')}</Button>}
      styles={{ body: { minHeight: 320 } }}
      className={className}
    >
      {!meta ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : !entity ? (
        <Result status="404" title="404" subTitle={tr(`未知的业务对象：${entityName}`)} />
      ) : (
        <>
          <ListView meta={meta} entity={entity} rowsGrow version={version} params={fixedQuery} onOpen={(mode, row) => setForm({ mode, id: row?.id })} />
          <EntityFormModal
            meta={meta}
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

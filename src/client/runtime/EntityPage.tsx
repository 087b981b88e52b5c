import { lazy, useCallback, useState, type ReactNode } from 'react'
import { useLocation } from 'react-router-dom'
import { Result, Spin } from 'antd'
import { useMeta, type Meta } from '../api/meta.js'
import type { EntityModel } from '../../shared/metadata/entity-model.js'
import EntityFormModal, { type FormDialog } from './EntityFormModal.js'
import { FeedbackProvider } from '../components/feedback.js'
import ListView from './ListView.js'
import type { EntityRow } from './entity-api.js'
import type { FormMode } from './form-schema.js'
import { useTr } from '../i18n/use-tr.js'

const DocumentListPage = lazy(() => import('./document/DocumentListPage.js'))

export interface EntityPageProps {
  /** The entity's `name` (e.g. `supplier`, `productCategory`). */
  entityName: string
  /** Over the list's search card (a guide to the screen). */
  before?: ReactNode
}

/** The whole screen of one business object: its list and the add / modify / detail dialog, all from its entity file. */
export default function EntityPage({ entityName, before }: EntityPageProps) {
  const tr = useTr()
  const meta = useMeta()
  const { pathname } = useLocation()
  if (!meta) return <Spin style={{ display: 'block', padding: 48 }} />
  let entity: EntityModel
  try {
    entity = meta.entity(entityName)
  } catch {
    return <Result status="404" title="404" subTitle={tr(`未知的业务对象：${entityName}`)} />
  }
  if (!entity.file.api) return <Result status="404" title="404" subTitle={tr(`${entity.label}没有列表接口`)} />
  // Documents have their own list (approval, status-dependent links) with their pages below its path.
  if (entity.file.document) return <DocumentListPage entityName={entity.name} listPath={pathname.replace(/\/+$/, '')} />
  return (
    <FeedbackProvider>
      <EntityScreen key={entity.name} meta={meta} entity={entity} before={before} />
    </FeedbackProvider>
  )
}

function EntityScreen({ meta, entity, before }: { meta: Meta; entity: EntityModel; before?: ReactNode }) {
  const [dialog, setDialog] = useState<FormDialog | null>(null)
  const [version, setVersion] = useState(0)
  const open = useCallback((mode: FormMode, row?: EntityRow) => setDialog({ mode, id: row?.id }), [])
  return (
    <>
      <ListView meta={meta} entity={entity} version={version} before={before} onOpen={open} />
      <EntityFormModal
        meta={meta}
        entity={entity}
        dialog={dialog}
        onClose={() => setDialog(null)}
        onSaved={() => {
          setDialog(null)
          setVersion((v) => v + 1)
        }}
      />
    </>
  )
}

import { Card, Result, Spin } from 'antd'
import { useNavigate, useParams } from 'react-router-dom'
import { useMeta } from '../api/meta.js'
import { closeTab } from '../app/tab-store.js'
import { hasPermission, useSession } from '../app/session.js'
import { FeedbackProvider } from '../components/feedback.js'
import { operationKeys } from '../../shared/metadata/operation-keys.js'
import FormView from './FormView.js'
import { useTr } from '../i18n/use-tr.js'

export interface EntityFormPageProps {
  entityName: string
  mode: 'add' | 'modify'
  /** The list page this form belongs to: where saving or cancelling goes back to. */
  listPath: string
}

/**
 * The add or modify form of an entity screen as a page of its own (`{list}/add`, `{list}/modify/{id}`,
 * spec 000 §2 Routes): a tab that a link or a reload opens, beside the list's dialog. Saving or
 * cancelling closes the tab and shows the list.
 */
export default function EntityFormPage({ entityName, mode, listPath }: EntityFormPageProps) {
  const tr = useTr()
  const meta = useMeta()
  const session = useSession()
  const navigate = useNavigate()
  const { id } = useParams()
  if (!meta) return <Spin style={{ display: 'block', padding: 48 }} />
  const entity = meta.entity(entityName)
  const op = mode === 'add' ? 'create' : 'modify'
  if (!hasPermission(session, operationKeys(entity, op))) return <Result status="403" title="403" subTitle={tr('无权限')} />
  const back = () => {
    const here = `${listPath}/${mode === 'add' ? 'add' : `modify/${encodeURIComponent(id ?? '')}`}`
    navigate(listPath)
    closeTab(here)
  }
  return (
    <FeedbackProvider>
      <Card data-entity-form-page={entity.name}>
        <FormView key={`${mode}:${id ?? ''}`} meta={meta} entity={entity} mode={mode} id={id} onSaved={back} onCancel={back} />
      </Card>
    </FeedbackProvider>
  )
}

import { lazy, Suspense, type ReactNode } from 'react'
import { registerMenuPage } from '../../app/menu-pages.js'
import { registerFormControl } from '../../components/form-controls.js'
import { registerRowAction } from '../../runtime/row-actions.js'
import type { EntityRow } from '../../runtime/entity-api.js'

/**
 * 定时器管理 (menu component `/development/qrtz/index`): the generic screen of the qrtzJob entity with
 * the cron picker for its expression, the built-in job list for 内置任务, and the row actions 暂停,
 * 恢复, 立即执行 (call, message, reload) and 执行记录 (the run history of the job). Loaded on first use.
 */
const EntityPage = lazy(() => import('../../runtime/EntityPage.js'))
const CronInput = lazy(() => import('../../components/CronInput.js'))
const JobHandlerSelect = lazy(() => import('./JobHandlerSelect.js'))
const JobAction = lazy(() => import('./JobAction.js'))
const JobRunsDialog = lazy(() => import('./JobRunsDialog.js'))

registerMenuPage('/development/qrtz/index', () => <EntityPage entityName="qrtzJob" />)
registerFormControl('qrtzJob', 'cron', (p) => (
  <Suspense fallback={null}>
    <CronInput {...p} />
  </Suspense>
))
registerFormControl('qrtzJob', 'targetClassName', (p) => (
  <Suspense fallback={null}>
    <JobHandlerSelect {...p} />
  </Suspense>
))

let opened = 0
const suspended = (node: ReactNode) => (
  <Suspense key={`qrtz-action-${++opened}`} fallback={null}>
    {node}
  </Suspense>
)

for (const action of ['pause', 'resume', 'trigger'] as const)
  registerRowAction('qrtzJob', action, (row: EntityRow, reload, close) => suspended(<JobAction action={action} job={row} reload={reload} onDone={close} />))
registerRowAction('qrtzJob', 'runs', (row: EntityRow, _reload, close) => suspended(<JobRunsDialog job={row} onClose={close} />))

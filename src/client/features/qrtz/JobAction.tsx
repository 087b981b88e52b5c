import { useEffect, useRef } from 'react'
import { api } from '../../api/http.js'
import type { EntityRow } from '../../runtime/entity-api.js'
import { useFeedback } from '../../components/feedback.js'
import { tr } from '../../i18n/use-tr.js'

interface RunOutcome {
  status: string
  message: string
}

export interface JobActionProps {
  action: 'pause' | 'resume' | 'trigger'
  job: EntityRow
  reload: () => void
  onDone: () => void
}

const done = (action: JobActionProps['action']): string => ({ pause: tr('已暂停'), resume: tr('已恢复'), trigger: tr('执行成功') })[action]

/** 暂停 / 恢复 / 立即执行 of one job: one PATCH, the outcome as a message, the list reloaded. Renders nothing. */
export default function JobAction({ action, job, reload, onDone }: JobActionProps) {
  const { message } = useFeedback()
  const sent = useRef(false)
  useEffect(() => {
    if (sent.current) return
    sent.current = true
    api
      .patch<RunOutcome | null>(`/qrtz/${action}`, { id: job.id })
      .then((outcome) => {
        if (action === 'trigger' && outcome && outcome.status !== 'SUCCESS') void message.error(tr('执行失败：') + tr(outcome.message))
        else void message.success(action === 'trigger' && outcome?.message ? done(action) + tr('：') + tr(outcome.message) : done(action))
        reload()
      })
      .catch(() => {})
      .finally(onDone)
  }, [action, job.id, message, reload, onDone])
  return null
}

import { useState } from 'react'
import { Button, Timeline } from 'antd'
import type { EnumCatalog } from '../../../shared/metadata/enum-catalog.js'
import { component } from '../../../shared/contracts/component.js'
import { call } from '../../api/call.js'
import { useSessionRead } from '../../app/use-call.js'
import { useTr } from '../../i18n/use-tr.js'
import { timelineColour } from './timeline-colour.js'

export interface OrderTimelineProps {
  orderId: string
  enums: EnumCatalog
  /** Changes with the document (e.g. its status and update time), so a timeline fetched moments ago is not reused. */
  version?: string
}

/**
 * The document's timeline (`GET /component/timeline/order`), newest first: only the latest entry until
 * expanded (000 §2 Shell), each dot in its biz type's colour (timeline-colour.ts).
 */
export default function OrderTimeline({ orderId, enums, version = '' }: OrderTimelineProps) {
  const tr = useTr()
  const [expanded, setExpanded] = useState(false)
  // Keyed by the version too: a timeline read before the document changed is not reused.
  const { data } = useSessionRead([component.orderTimeline.path, orderId, version], () => call(component.orderTimeline, { orderId }), { revalidateOnFocus: false })
  const entries = data ?? []
  if (!entries.length) return null
  const shown = expanded ? entries : entries.slice(0, 1)
  return (
    <div className="document-timeline" aria-label={tr('单据时间线')}>
      <Timeline
        items={shown.map((e) => ({
          key: e.id,
          color: timelineColour(enums, e.bizType),
          children: (
            <div>
              <div>{e.content}</div>
              <div style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
                {e.createBy} {e.createTime}
              </div>
            </div>
          ),
        }))}
      />
      {entries.length > 1 && (
        <Button type="link" size="small" onClick={() => setExpanded((v) => !v)}>
          {expanded ? tr('收起') : tr(`展开（共${entries.length}条）`)}
        </Button>
      )}
    </div>
  )
}

import { useMemo, useState } from 'react'
import { Button, Drawer, Typography } from 'antd'
import Decimal from 'decimal.js'
import { FeedbackProvider } from '../../components/feedback.js'
import ListView from '../../runtime/ListView.js'
import { balanceDocumentsView, balanceView } from '../../views/settle-balance.js'
import type { BalanceSide } from '../../views/settle-balance-sides.js'
import { useTr } from '../../i18n/use-tr.js'

interface PartyRow extends Record<string, unknown> {
  partyId: string
  partyCode: string
  partyName: string
  balance: string
}

/** Money as the server sends it (exact text), shown with 2 places; never through a float. */
const moneyText = (v: unknown) => {
  try {
    return new Decimal(String(v ?? 0)).toFixed(2)
  } catch {
    return String(v ?? '')
  }
}

const money = (key: string) => (row: Record<string, unknown>) => moneyText(row[key])

/**
 * 供应商往来余额 / 客户往来余额 (views/settle-balance.ts): clicking a party opens the documents behind
 * its balance in a drawer. 导出 on both.
 */
export default function SettleBalancePage({ side }: { side: BalanceSide }) {
  const tr = useTr()
  const view = useMemo(() => balanceView(side), [side])
  const documents = useMemo(() => balanceDocumentsView(side), [side])
  const [open, setOpen] = useState<PartyRow | null>(null)
  return (
    <FeedbackProvider>
      <ListView<PartyRow>
        source={view}
        render={{
          partyCode: (row) => (
            <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setOpen(row)} title={tr(`查看${row.partyName}的往来单据`)}>
              {row.partyCode}
            </Button>
          ),
          balance: money('balance'),
        }}
        rowActionsWidth={100}
        renderRowActions={(row) => (
          <Button type="link" size="small" onClick={() => setOpen(row)}>
            {tr('往来单据')}
          </Button>
        )}
        after={
          <Drawer open={!!open} onClose={() => setOpen(null)} width={860} destroyOnHidden title={open ? tr(`${open.partyName}（${open.partyCode}）往来单据`) : ''}>
            {open && (
              <ListView
                source={documents}
                params={{ [side.idParam]: open.partyId }}
                render={{ totalAmount: money('totalAmount'), outstanding: money('outstanding') }}
                header={
                  <div style={{ marginBottom: 12 }}>
                    {tr(side.balanceLabel)}：<Typography.Text strong>{moneyText(open.balance)}</Typography.Text>
                  </div>
                }
              />
            )}
          </Drawer>
        }
      />
    </FeedbackProvider>
  )
}

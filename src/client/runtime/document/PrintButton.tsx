import { useState } from 'react'
import { Dropdown } from 'antd'
import { PrinterOutlined } from '@ant-design/icons'
import { call, callDownload } from '../../api/call.js'
import { print } from '../../../shared/contracts/print.js'
import { useTr } from '../../i18n/use-tr.js'

export interface PrintButtonProps {
  /** The document kind (its file's name). */
  kind: string
  /** The documents to print, asked at the click (a list's chosen rows); none chosen, nothing is printed. */
  ids: () => string[] | Promise<string[]>
  label?: string
}

/**
 * 打印: the PDF of the documents with the kind's default template (the built-in one until the tenant
 * designs its own); the arrow offers the kind's other templates. The server counts the print.
 */
export default function PrintButton({ kind, ids, label }: PrintButtonProps) {
  const tr = useTr()
  const [busy, setBusy] = useState(false)
  const [choices, setChoices] = useState<{ id: string; name: string; isDefault: boolean }[]>()
  const run = async (templateId?: string) => {
    const chosen = await ids()
    if (!chosen.length) return
    setBusy(true)
    try {
      await callDownload(print.pdf, { kind, ids: chosen.join(','), ...(templateId ? { templateId } : {}) })
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setBusy(false)
    }
  }
  const load = async (open: boolean) => {
    if (!open || choices) return
    try {
      setChoices(await call(print.choices, { kind }))
    } catch {
      setChoices([])
    }
  }
  return (
    <Dropdown.Button
      loading={busy}
      icon={undefined}
      onClick={() => void run()}
      onOpenChange={(open) => void load(open)}
      menu={{
        items: (choices ?? []).map((c) => ({ key: c.id, label: c.isDefault ? `${c.name}（${tr('默认模板')}）` : c.name })),
        onClick: ({ key }) => void run(key),
      }}
      buttonsRender={([left, right]) => [left, right]}
    >
      <PrinterOutlined aria-hidden /> {label ?? tr('打印')}
    </Dropdown.Button>
  )
}

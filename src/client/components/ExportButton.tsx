import { useState } from 'react'
import { Button } from 'antd'
import { DownloadOutlined } from '@ant-design/icons'
import { useTr } from '../i18n/use-tr.js'

/**
 * 导出 of a list or screen: runs the download and spins until the file has arrived. A failure needs no
 * handling here: the api layer has shown the server's message.
 */
export function ExportButton({ run, label }: { run: () => Promise<unknown>; label?: string }) {
  const tr = useTr()
  const [busy, setBusy] = useState(false)
  const start = () => {
    setBusy(true)
    run()
      .catch(() => undefined)
      .finally(() => setBusy(false))
  }
  return (
    <Button icon={<DownloadOutlined aria-hidden />} loading={busy} onClick={start}>
      {label ?? tr('导出')}
    </Button>
  )
}

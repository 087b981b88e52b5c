import { lazy, Suspense } from 'react'
import { Spin } from 'antd'
import type { MonacoEditorProps } from './MonacoEditor.js'

const MonacoEditor = lazy(() => import('./MonacoEditor.js'))

/** Monaco on first use: the editor chunk never reaches the login route or a plain list. */
export default function LazyMonaco(props: MonacoEditorProps) {
  return (
    <Suspense fallback={<Spin style={{ display: 'block', padding: 24 }} />}>
      <MonacoEditor {...props} />
    </Suspense>
  )
}

import { lazy, Suspense } from 'react'
import { Spin } from 'antd'
import type { FormControlProps } from '../../components/form-controls.js'

// Both load on first use: the editor is tiptap (its own chunk), the viewer DOMPurify.
const RichTextEditor = lazy(() => import('./RichTextEditor.js'))
const SafeHtml = lazy(() => import('./SafeHtml.js'))

const loading = <Spin style={{ display: 'block', padding: 24 }} />

/** The 内容 of a notice in its publish form: the rich-text editor, or the sanitised HTML in detail. */
export default function NoticeContentControl({ record: _record, readPretty, ...props }: FormControlProps) {
  return (
    <Suspense fallback={loading}>
      {readPretty ? (
        <SafeHtml html={typeof props.value === 'string' ? props.value : ''} className="notice-html-detail" />
      ) : (
        <RichTextEditor {...props} />
      )}
    </Suspense>
  )
}

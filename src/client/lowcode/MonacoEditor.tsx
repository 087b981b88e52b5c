import Editor from '@monaco-editor/react'
import { Spin } from 'antd'
import './monaco-setup.js'

export interface MonacoEditorProps {
  value: string
  onChange?: (value: string) => void
  language: 'javascript' | 'json' | 'typescript' | 'plaintext'
  height?: number | string
  readOnly?: boolean
  /** Model path: the JSON language matches its schema by it. */
  path?: string
  ariaLabel?: string
}

/** Monaco with the local slim build: the lazy chunk behind every script, JSON and code editor. */
export default function MonacoEditor({ value, onChange, language, height = 240, readOnly, path, ariaLabel }: MonacoEditorProps) {
  return (
    <div className="lowcode-monaco" style={{ border: '1px solid #d9d9d9', borderRadius: 6 }} data-language={language}>
      <Editor
        height={height}
        language={language}
        path={path}
        value={value}
        loading={<Spin />}
        onChange={(v) => onChange?.(v ?? '')}
        options={{
          readOnly,
          minimap: { enabled: false },
          fontSize: 13,
          scrollBeyondLastLine: false,
          automaticLayout: true,
          tabSize: 2,
          ariaLabel,
          wordWrap: 'on',
        }}
      />
    </div>
  )
}

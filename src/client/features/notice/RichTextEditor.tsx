import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Button, Divider, Input, Popover, Space, Tooltip, theme } from 'antd'
import {
  BoldOutlined,
  DisconnectOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons'
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react'
import StarterKit from '@tiptap/starter-kit'
import type { FormControlProps } from '../../components/form-controls.js'
import { sanitizeHtml } from './sanitize.js'
import './notice.css'
import { useTr } from '../../i18n/use-tr.js'

/** Rich text height (000 §9). */
export const RICH_TEXT_HEIGHT = 500

export interface RichTextEditorProps extends FormControlProps {
  height?: number
}

/** An empty document is no content: the field's required check must see ''. */
const htmlOf = (editor: Editor) => (editor.isEmpty ? '' : editor.getHTML())

/**
 * The rich-text editor (tiptap, in its own lazy chunk): bold, italic, headings, lists, links, undo
 * and redo. Its value is HTML; whatever comes in (saved content, a paste) is parsed into the editor's
 * own schema, so tags and attributes it does not know (images, scripts, event handlers) are dropped.
 */
export default function RichTextEditor({ value, onChange, disabled, readOnly, id, height = RICH_TEXT_HEIGHT, ...rest }: RichTextEditorProps) {
  const tr = useTr()
  const { token } = theme.useToken()
  const label = rest['aria-label'] ?? tr('内容')
  const editable = !disabled && !readOnly
  // The HTML this editor last reported, so its own changes coming back as `value` do not reset it.
  const reported = useRef(typeof value === 'string' ? value : '')
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        code: false,
        codeBlock: false,
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https' },
      }),
    ],
    content: sanitizeHtml(typeof value === 'string' ? value : ''),
    editable,
    editorProps: {
      attributes: {
        class: 'notice-editor-doc',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        ...(id ? { id } : {}),
      },
    },
    onUpdate: ({ editor: e }) => {
      const html = htmlOf(e)
      reported.current = html
      onChangeRef.current?.(html)
    },
  })

  // A value set from outside (form reset, a loaded record) replaces the document.
  useEffect(() => {
    const next = typeof value === 'string' ? value : ''
    if (next === reported.current) return
    reported.current = next
    editor.commands.setContent(sanitizeHtml(next), { emitUpdate: false })
  }, [editor, value])

  useEffect(() => {
    editor.setEditable(editable, false)
  }, [editor, editable])

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      h1: e.isActive('heading', { level: 1 }),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      link: e.isActive('link'),
      href: (e.getAttributes('link').href as string | undefined) ?? '',
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  })

  const tool = (key: string, title: string, icon: ReactNode, active: boolean, run: () => void, enabled = true) => (
    <Tooltip key={key} title={title} mouseEnterDelay={0.6}>
      <Button
        type={active ? 'primary' : 'text'}
        ghost={active}
        size="small"
        aria-label={title}
        aria-pressed={active}
        disabled={!editable || !enabled}
        icon={icon}
        // Keep the selection in the editor while clicking the toolbar.
        onMouseDown={(e) => e.preventDefault()}
        onClick={run}
      />
    </Tooltip>
  )
  const chain = () => editor.chain().focus()

  return (
    <div
      className={editable ? 'notice-editor' : 'notice-editor is-disabled'}
      style={{ borderColor: token.colorBorder, borderRadius: token.borderRadius, background: editable ? token.colorBgContainer : token.colorBgContainerDisabled }}
    >
      <div className="notice-editor-toolbar" role="toolbar" aria-label={tr('编辑工具栏')} style={{ borderColor: token.colorBorderSecondary }}>
        <Space size={2} wrap>
          {tool('bold', tr('加粗'), <BoldOutlined />, state.bold, () => chain().toggleBold().run())}
          {tool('italic', tr('斜体'), <ItalicOutlined />, state.italic, () => chain().toggleItalic().run())}
          <Divider type="vertical" />
          {tool('h1', tr('标题1'), <span className="notice-editor-heading">H1</span>, state.h1, () => chain().toggleHeading({ level: 1 }).run())}
          {tool('h2', tr('标题2'), <span className="notice-editor-heading">H2</span>, state.h2, () => chain().toggleHeading({ level: 2 }).run())}
          {tool('h3', tr('标题3'), <span className="notice-editor-heading">H3</span>, state.h3, () => chain().toggleHeading({ level: 3 }).run())}
          <Divider type="vertical" />
          {tool('bullet', tr('无序列表'), <UnorderedListOutlined />, state.bullet, () => chain().toggleBulletList().run())}
          {tool('ordered', tr('有序列表'), <OrderedListOutlined />, state.ordered, () => chain().toggleOrderedList().run())}
          <Divider type="vertical" />
          <LinkButton editor={editor} active={state.link} href={state.href} disabled={!editable} />
          {tool('unlink', tr('取消链接'), <DisconnectOutlined />, false, () => chain().extendMarkRange('link').unsetLink().run(), state.link)}
          <Divider type="vertical" />
          {tool('undo', tr('撤销'), <UndoOutlined />, false, () => chain().undo().run(), state.canUndo)}
          {tool('redo', tr('重做'), <RedoOutlined />, false, () => chain().redo().run(), state.canRedo)}
        </Space>
      </div>
      <EditorContent editor={editor} className="notice-editor-body" style={{ height }} />
    </div>
  )
}

/** 链接: asks for the address; with no selection the address itself is inserted as a link. */
function LinkButton({ editor, active, href, disabled }: { editor: Editor; active: boolean; href: string; disabled: boolean }) {
  const tr = useTr()
  const [open, setOpen] = useState(false)
  const [url, setUrl] = useState('')
  const [error, setError] = useState('')

  const apply = () => {
    const text = url.trim()
    if (!text) {
      editor.chain().focus().extendMarkRange('link').unsetLink().run()
      setOpen(false)
      return
    }
    const { empty } = editor.state.selection
    const chain = editor.chain().focus().extendMarkRange('link')
    const ok = empty && !active
      ? editor.can().setLink({ href: text }) &&
        chain.insertContent({ type: 'text', text, marks: [{ type: 'link', attrs: { href: text } }] }).run()
      : chain.setLink({ href: text }).run()
    if (!ok) {
      setError(tr('链接地址不正确'))
      return
    }
    setOpen(false)
  }

  return (
    <Popover
      open={open}
      trigger="click"
      onOpenChange={(next) => {
        if (next) {
          setUrl(href)
          setError('')
        }
        setOpen(next)
      }}
      title={tr('链接地址')}
      content={
        <div style={{ width: 320 }}>
          <Space.Compact style={{ width: '100%' }}>
            <Input
              aria-label={tr('链接地址')}
              placeholder="https://"
              value={url}
              status={error ? 'error' : undefined}
              onChange={(e) => {
                setUrl(e.target.value)
                setError('')
              }}
              onPressEnter={(e) => {
                e.preventDefault()
                apply()
              }}
              autoFocus
            />
            <Button type="primary" onClick={apply}>
              {tr('确定')}
            </Button>
          </Space.Compact>
          {error && (
            <div role="alert" className="notice-editor-link-error">
              {error}
            </div>
          )}
        </div>
      }
    >
      <Tooltip title={tr('链接')} mouseEnterDelay={0.6}>
        <Button
          type={active ? 'primary' : 'text'}
          ghost={active}
          size="small"
          aria-label={tr('链接')}
          aria-pressed={active}
          disabled={disabled}
          icon={<LinkOutlined />}
          onMouseDown={(e) => e.preventDefault()}
        />
      </Tooltip>
    </Popover>
  )
}

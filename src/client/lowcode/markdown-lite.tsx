import { Fragment, type ReactNode } from 'react'
import { Typography } from 'antd'

/**
 * A markdown subset rendered as React elements (never as HTML, so nothing a user writes can become
 * markup): `#`–`####` headings, `-`/`*`/`1.` list items, `**bold**`, `` `code` `` and paragraphs.
 */
function inline(text: string): ReactNode[] {
  const out: ReactNode[] = []
  const pattern = /\*\*([^*]+)\*\*|`([^`]+)`/g
  let last = 0
  let m: RegExpExecArray | null
  while ((m = pattern.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index))
    out.push(m[1] !== undefined ? <strong key={m.index}>{m[1]}</strong> : <code key={m.index}>{m[2]}</code>)
    last = m.index + m[0].length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}

export function MarkdownLite({ source }: { source: string }) {
  const blocks: ReactNode[] = []
  let list: { ordered: boolean; items: string[] } | null = null
  let para: string[] = []
  const flush = () => {
    if (para.length) blocks.push(<Typography.Paragraph key={blocks.length}>{inline(para.join(' '))}</Typography.Paragraph>)
    para = []
    if (list) {
      const items = list.items.map((t, i) => <li key={i}>{inline(t)}</li>)
      blocks.push(list.ordered ? <ol key={blocks.length}>{items}</ol> : <ul key={blocks.length}>{items}</ul>)
    }
    list = null
  }
  for (const raw of source.split(/\r?\n/)) {
    const line = raw.trimEnd()
    const heading = /^(#{1,4})\s+(.*)$/.exec(line)
    const bullet = /^\s*[-*]\s+(.*)$/.exec(line)
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line)
    if (heading) {
      flush()
      blocks.push(
        <Typography.Title key={blocks.length} level={(heading[1].length + 1) as 2 | 3 | 4 | 5}>
          {inline(heading[2])}
        </Typography.Title>,
      )
    } else if (bullet || numbered) {
      const ordered = Boolean(numbered)
      if (para.length || (list && list.ordered !== ordered)) flush()
      list ??= { ordered, items: [] }
      list.items.push((bullet ?? numbered)![1])
    } else if (!line.trim()) flush()
    else {
      if (list) flush()
      para.push(line.trim())
    }
  }
  flush()
  return <Fragment>{blocks}</Fragment>
}

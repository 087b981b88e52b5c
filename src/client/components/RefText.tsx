import { Input } from 'antd'

export interface RefTextProps {
  /** The ref's label as the record answers it (`{field}Name`). */
  text?: string
  readPretty?: boolean
  id?: string
  'aria-label'?: string
}

/** A ref that no picker can choose (e.g. a product's SPU): its label, never editable. */
export default function RefText({ text, readPretty, id, ...rest }: RefTextProps) {
  if (readPretty) return <span>{text ?? ''}</span>
  return <Input id={id} aria-label={rest['aria-label']} value={text ?? ''} disabled />
}

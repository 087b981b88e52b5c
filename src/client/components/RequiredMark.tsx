import { theme } from 'antd'

/** The red star of a required input drawn outside an antd form item, in the theme's error colour (the spec's #f5222f). */
export function RequiredMark({ gap = 4 }: { gap?: number }) {
  const { token } = theme.useToken()
  return (
    <span style={{ color: token.colorError, marginRight: gap }} aria-hidden>
      *
    </span>
  )
}

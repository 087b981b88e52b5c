import { createContext, useContext, useMemo, type ReactNode } from 'react'
import { App, message as staticMessage, Modal, type ModalFuncProps } from 'antd'
import type { MessageInstance } from 'antd/es/message/interface'

export interface Feedback {
  message: MessageInstance
  /** What both the static Modal and its hook offer. */
  modal: { confirm: (config: ModalFuncProps) => { destroy: () => void; update: (config: ModalFuncProps) => void } }
}

const FeedbackContext = createContext<Feedback | null>(null)

/**
 * Messages and confirms that follow the app's theme and locale. Static `message`/`Modal` calls do
 * not see ConfigProvider, so a page renders antd's hook holders; components outside a page fall
 * back to the statics.
 */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [message, messageHolder] = staticMessage.useMessage()
  const [modal, modalHolder] = Modal.useModal()
  const value = useMemo(() => ({ message, modal }), [message, modal])
  return (
    <FeedbackContext.Provider value={value}>
      {messageHolder}
      {modalHolder}
      {children}
    </FeedbackContext.Provider>
  )
}

const fallback: Feedback = { message: staticMessage, modal: Modal }

export function useFeedback(): Feedback {
  // An <App> from the shell also carries hook-based instances; use it when there is no page provider.
  const app = App.useApp()
  const own = useContext(FeedbackContext)
  if (own) return own
  if (app?.message && typeof app.message.success === 'function' && app.modal && typeof app.modal.confirm === 'function')
    return { message: app.message, modal: app.modal }
  return fallback
}

import { useFeedback } from '../components/feedback.js'
import { useTr } from '../i18n/use-tr.js'

/**
 * The way a list asks before a batch action on its chosen rows (批量启用, 批量删除, 批量审核…): none
 * chosen says so; otherwise a confirmation, the call, its success message, then `after` (clear the
 * choice, reload). A refused call has shown the server's message already.
 */
export function useBatchConfirm() {
  const tr = useTr()
  const { message, modal } = useFeedback()
  const withSelection = (selected: readonly string[], verb: string, then: (ids: string[]) => void) => {
    if (!selected.length) {
      message.warning(tr(`请选择要${verb}的数据！`))
      return
    }
    then([...selected])
  }
  const confirmBatch = (selected: readonly string[], verb: string, run: (ids: string[]) => Promise<unknown>, done: string, after: () => void) =>
    withSelection(selected, verb, (ids) =>
      modal.confirm({
        title: tr('提示'),
        content: tr(`确定${verb}选中的${ids.length}条数据？`),
        okText: tr('确定'),
        cancelText: tr('取消'),
        onOk: async () => {
          try {
            await run(ids)
            message.success(done)
            after()
          } catch {
            // The api layer has shown the server's message.
          }
        },
      }),
    )
  return { withSelection, confirmBatch }
}

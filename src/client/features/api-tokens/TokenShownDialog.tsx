import { Alert, Button, Modal, Typography } from 'antd'
import { CopyOutlined } from '@ant-design/icons'
import { useFeedback } from '../../components/feedback.js'
import { useTr } from '../../i18n/use-tr.js'

export interface TokenShownDialogProps {
  name: string
  token: string
  onClose: () => void
}

/**
 * The one time a token is shown: the server keeps only its digest, so the dialog says so, offers 复制
 * and closes only through 我已保存 (not by a click beside it, which would lose the token unseen).
 */
export default function TokenShownDialog({ name, token, onClose }: TokenShownDialogProps) {
  const tr = useTr()
  const { message } = useFeedback()
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token)
      void message.success(tr('已复制到剪贴板'))
    } catch {
      void message.error(tr('复制失败，请选中令牌后手动复制'))
    }
  }
  return (
    <Modal
      open
      className="api-token-shown"
      title={tr(`令牌已创建：${name}`)}
      maskClosable={false}
      keyboard={false}
      closable={false}
      width={620}
      footer={[
        <Button key="copy" icon={<CopyOutlined aria-hidden />} onClick={() => void copy()}>
          {tr('复制')}
        </Button>,
        <Button key="done" type="primary" onClick={onClose}>
          {tr('我已保存')}
        </Button>,
      ]}
    >
      <Alert type="warning" showIcon message={tr('令牌只显示这一次，关闭后无法再次查看。请立即复制并妥善保存。')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph code className="api-token-value" style={{ wordBreak: 'break-all', fontSize: 14 }} aria-label={tr('令牌')}>
        {token}
      </Typography.Paragraph>
      <Typography.Text type="secondary">{tr('调用接口时在请求头中携带：Authorization: Bearer <令牌>')}</Typography.Text>
    </Modal>
  )
}

import { useEffect, useState } from 'react'
import { Descriptions, Form, Input, InputNumber, Modal, Spin } from 'antd'
import { api } from '../../api/http.js'
import PickerInput from '../../runtime/picker/PickerInput.js'
import type { EntityRow } from '../../runtime/entity-api.js'
import { useFeedback } from '../../components/feedback.js'
import { useTr } from '../../i18n/use-tr.js'
import { logistics } from '../../../shared/contracts/logistics.js'
import { call } from '../../api/call.js'

export interface DeliveryDialogProps {
  sheet: EntityRow
  /** Fetches the list again (the row becomes 已发货). */
  reload: () => void
  onClose: () => void
}

interface DeliveryInfo {
  id: string
  code: string
  logisticsCompanyId: string
  logisticsNo: string | null
  totalAmount: string | null
}

interface DeliveryValues {
  logisticsCompanyId?: string
  logisticsNo?: string
  totalAmount?: string | null
}

/**
 * 发货 of a 待发货 logistics sheet: the carrier (the sheet's unless another is chosen), the tracking
 * number and the fee, loaded from `GET /logistics/sheet/delivery` and sent to `PUT` the same path; the
 * server checks it all again (物流单号不能为空, 物流单已发货，无法重复发货！…).
 */
export default function DeliveryDialog({ sheet, reload, onClose }: DeliveryDialogProps) {
  const tr = useTr()
  const { message } = useFeedback()
  const [form] = Form.useForm<DeliveryValues>()
  const [info, setInfo] = useState<DeliveryInfo | undefined>()
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    api
      .get<DeliveryInfo>('/logistics/sheet/delivery', { id: sheet.id })
      .then((d) => {
        if (!live) return
        setInfo(d)
        form.setFieldsValue({ logisticsCompanyId: d.logisticsCompanyId, logisticsNo: d.logisticsNo ?? undefined, totalAmount: d.totalAmount })
      })
      .catch(() => onClose())
    return () => {
      live = false
    }
  }, [sheet.id, form, onClose])

  const submit = async () => {
    let values: DeliveryValues
    try {
      values = await form.validateFields()
    } catch {
      return
    }
    setBusy(true)
    try {
      await call(logistics.deliver, { id: sheet.id, ...values, logisticsNo: values.logisticsNo?.trim() })
      message.success(tr('发货成功！'))
      reload()
      onClose()
    } catch {
      // The api layer has shown the server's message.
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal open title={tr('物流单发货')} okText={tr('确定')} cancelText={tr('取消')} confirmLoading={busy} onOk={() => void submit()} onCancel={onClose} destroyOnHidden>
      {!info ? (
        <Spin style={{ display: 'block', padding: 24 }} />
      ) : (
        <>
          <Descriptions size="small" column={1} style={{ marginBottom: 12 }} items={[{ key: 'code', label: tr('单据号'), children: info.code }]} />
          <Form form={form} layout="vertical">
            <Form.Item name="logisticsCompanyId" label={tr('物流公司')} rules={[{ required: true, message: tr('物流公司不能为空') }]}>
              <PickerInput kind="logistics/company" aria-label={tr('物流公司')} />
            </Form.Item>
            <Form.Item name="logisticsNo" label={tr('物流单号')} rules={[{ required: true, whitespace: true, message: tr('物流单号不能为空') }, { max: 100, message: tr('物流单号最多100个字符') }]}>
              <Input aria-label={tr('物流单号')} maxLength={100} />
            </Form.Item>
            <Form.Item name="totalAmount" label={tr('物流费（元）')}>
              <InputNumber<string> aria-label={tr('物流费（元）')} stringMode min="0" precision={2} style={{ width: '100%' }} />
            </Form.Item>
          </Form>
        </>
      )}
    </Modal>
  )
}

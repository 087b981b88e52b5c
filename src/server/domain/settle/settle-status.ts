import { SETTLE_STATUS } from '../../../shared/generated/enum-codes.js'

/** Whether a business document still waits for settlement (未结算 / 部分结算 / 已结算 / 无需结算). */
export const SettleStatus = SETTLE_STATUS

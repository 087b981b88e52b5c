import type { Services } from '../../engine/services.js'
import { goodsDocumentImport } from './document-import.js'

/**
 * Purchase order import (000 §5): grouped by warehouse code, supplier code, buyer code and expected
 * arrival date; an empty arrival date means today; 是否赠品 is 是 or 否 and a gift line costs 0; the order's
 * remark comes from the group's first row. Orders are created without agreed payments (the screen's create
 * allows that too): they come with the agreed-payment import (purchase-order-paytype-import.ts) or the
 * order's modify, and approval asks for them.
 */
export const purchaseOrderImport = (services: Services) =>
  goodsDocumentImport(services, {
    document: 'purchaseOrder',
    dates: [{ field: 'expectArriveDate', header: '预计到货日期', required: false, blankIsToday: true }],
    quantityHeader: '采购数量',
  })

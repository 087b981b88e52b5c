import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import { registerImportKind } from '../../engine/import/kind.js'
import { purchaseOrderImport } from '../../domain/purchase/purchase-order-import.js'
import { purchaseOrderPayTypeImport } from '../../domain/purchase/purchase-order-paytype-import.js'
import { purchaseReceiveSheetImport } from '../../domain/purchase/receive-sheet-import.js'
import { importToolbarActions } from '../../../shared/metadata/import-actions.js'

/**
 * The imports of the purchase area (000 §5, §7 Imports), each through the import engine's seam:
 * - `POST /purchase/order/import`: purchase orders, one per group of rows (domain/purchase/purchase-order-import.ts);
 * - `POST /purchase/order/import/paytype`: agreed payments of purchase orders (…-paytype-import.ts);
 * - `POST /purchase/receive/sheet/import`: receive sheets (…-receive-sheet-import.ts);
 * each with `GET {url}/template`. A group is all or nothing; the other groups are written. The urls and
 * keys are the documents' list toolbars (`import`, and `import/paytype` with its own key), which the
 * document list page reads too.
 */
export function registerPurchaseImports(app: FastifyInstance, services: Services): void {
  const order = services.registry.get('purchaseOrder')
  const receive = services.registry.get('receiveSheet')

  const orders = purchaseOrderImport(services)
  registerImportKind(app, services, {
    url: `${order.file.api!.base}/import`,
    access: operationKeys(order, 'import'),
    label: order.label,
    atomicity: 'group',
    columns: orders.columns,
    rules: orders.rules,
    groupKey: orders.groupKey,
    write: orders.write,
  })

  const payTypeAction = importToolbarActions(order.file).find((a) => a.key === 'import/paytype')
  if (payTypeAction) {
    const payments = purchaseOrderPayTypeImport(services)
    registerImportKind(app, services, {
      url: `${order.file.api!.base}/${payTypeAction.key}`,
      access: payTypeAction.permission ? [payTypeAction.permission] : operationKeys(order, 'import'),
      label: `${order.label}约定支付`,
      atomicity: 'group',
      columns: payments.columns,
      rules: payments.rules,
      groupKey: payments.groupKey,
      write: payments.write,
    })
  }

  const receipts = purchaseReceiveSheetImport(services)
  registerImportKind(app, services, {
    url: `${receive.file.api!.base}/import`,
    access: operationKeys(receive, 'import'),
    label: receive.label,
    atomicity: 'group',
    columns: receipts.columns,
    rules: receipts.rules,
    groupKey: receipts.groupKey,
    write: receipts.write,
    precheck: (ctx) => receipts.requireUnlinked(ctx.db, ctx),
  })
}

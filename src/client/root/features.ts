/**
 * The feature modules: each registers its menu pages, row actions, form controls and header items at
 * import time. Imported by the signed-in app (a lazy chunk), never by the entry, so the login route does not
 * load them (bench: test/bench/bundle-size.bench.ts).
 */
import '../features/system/index.js'
import '../features/notice/index.js'
import '../features/bus/index.js'
import '../features/dictionary/index.js'
import '../features/product/index.js'
import '../features/data-permission/index.js'
import '../runtime/document/index.js'
import '../runtime/entity-form-routes.js'
import '../lowcode/index.js'
import '../runtime/singleton/index.js'
import '../features/take-stock/index.js'
import '../features/stock-ledger/index.js'
import '../features/settle-payments/index.js'
import '../features/settle-balance/index.js'
import '../features/crm-deals/index.js'
import '../features/crm-reports/index.js'
import '../features/crm-customers/index.js'
import '../features/logistics/index.js'
import '../features/qrtz/index.js'
import '../features/print-templates/index.js'
import '../features/webhooks/index.js'
import '../features/smart-work/index.js'
import '../features/api-docs/index.js'
import '../features/api-tokens/index.js'

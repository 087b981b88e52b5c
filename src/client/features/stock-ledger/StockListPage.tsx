import { FeedbackProvider } from '../../components/feedback.js'
import SourceListView from '../../runtime/SourceListView.js'
import { STOCK_PRODUCT_VIEW } from '../../views/stock-product.js'

/** 库存 → 商品库存: the declared view (views/stock-product.ts). */
export default function StockListPage() {
  return (
    <FeedbackProvider>
      <SourceListView source={STOCK_PRODUCT_VIEW} />
    </FeedbackProvider>
  )
}

import { FeedbackProvider } from '../../components/feedback.js'
import ListView from '../../runtime/ListView.js'
import { STOCK_PRODUCT_VIEW } from '../../views/stock-product.js'

/** 库存 → 商品库存: the declared view (views/stock-product.ts). */
export default function StockListPage() {
  return (
    <FeedbackProvider>
      <ListView source={STOCK_PRODUCT_VIEW} />
    </FeedbackProvider>
  )
}

import { lazy, Suspense, type ComponentType } from 'react'
import { Spin } from 'antd'
import { registerFormControl, type FormControlProps } from '../../components/form-controls.js'

/**
 * Product form controls in place of the JSON text of the entity files' virtual `json` fields:
 * - 商品SPU `products`: the SKU matrix of the chosen sale-property groups;
 * - 商品 `productBundles`: the components of a bundle (shown for 组合商品 only);
 * - 商品 and 商品SPU `properties`: the property values of the chosen category;
 * - 商品属性 `items`: the values of a 多选 / 单选 property.
 * Each loads with the first form that shows it.
 */
function lazyControl(load: () => Promise<{ default: ComponentType<FormControlProps> }>): ComponentType<FormControlProps> {
  const Control = lazy(load)
  return function LazyProductControl(props: FormControlProps) {
    return (
      <Suspense fallback={<Spin size="small" />}>
        <Control {...props} />
      </Suspense>
    )
  }
}

const SkuMatrixInput = lazyControl(() => import('./SkuMatrixInput.js'))
const BundleLinesInput = lazyControl(() => import('./BundleLinesInput.js'))
const PropertyValuesInput = lazyControl(() => import('./PropertyValuesInput.js'))
const PropertyItemsInput = lazyControl(() => import('./PropertyItemsInput.js'))

registerFormControl('productPoly', 'products', SkuMatrixInput)
registerFormControl('productPoly', 'properties', PropertyValuesInput)
registerFormControl('product', 'productBundles', BundleLinesInput)
registerFormControl('product', 'properties', PropertyValuesInput)
registerFormControl('productProperty', 'items', PropertyItemsInput)

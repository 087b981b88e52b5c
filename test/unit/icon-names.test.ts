import { describe, expect, it } from 'vitest'
import * as icons from '@ant-design/icons'
import { ancestorIconName, iconComponentName } from '../../src/client/components/icon-names.js'

describe('menu icon names (000 §2 icon picker: built-in and custom names)', () => {
  it('an antd name is itself; the ancestor\'s antd 1.x name draws the same icon', () => {
    expect(iconComponentName('SettingOutlined')).toBe('SettingOutlined')
    expect(iconComponentName('setting')).toBe('SettingOutlined')
    expect(iconComponentName(' shopping-cart ')).toBe('ShoppingCartOutlined')
    expect(iconComponentName('star-fill')).toBe('StarFilled')
    expect(iconComponentName('check-circle-twotone')).toBe('CheckCircleTwoTone')
    for (const name of ['setting', 'shopping-cart', 'star-fill', 'check-circle-twotone', 'file-text', 'bar-chart'])
      expect(icons[iconComponentName(name) as keyof typeof icons], name).toBeTruthy()
    // A custom name that is no icon stays as it is (the picker keeps it under 自定义图标).
    expect(iconComponentName('erp-warehouse-icon9')).toBe('ErpWarehouseIcon9Outlined')
    expect(iconComponentName('My Icon')).toBe('My Icon')
  })

  it('a search by the ancestor\'s name finds the built-in icon', () => {
    expect(ancestorIconName('ShoppingCartOutlined')).toBe('shopping-cart')
    expect(ancestorIconName('StarFilled')).toBe('star-fill')
    expect(ancestorIconName('CheckCircleTwoTone')).toBe('check-circle-twotone')
    for (const name of ['ShoppingCartOutlined', 'StarFilled', 'CheckCircleTwoTone', 'BarChartOutlined']) expect(iconComponentName(ancestorIconName(name))).toBe(name)
  })
})

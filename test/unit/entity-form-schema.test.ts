import { describe, expect, it } from 'vitest'
import type { ISchema } from '@formily/react'
import { buildFormSchema, formItems, type FormMode } from '../../src/client/runtime/form-schema.js'
import { firstError, initialFormValues, toSubmitValues } from '../../src/client/runtime/form-values.js'
import { loadClientMeta } from './client-entities.js'

const meta = loadClientMeta()
const supplier = meta.entity('supplier')

function schemaOf(entityName: string, mode: FormMode) {
  const entity = meta.entity(entityName)
  const items = formItems(entity, mode, meta.lookup)
  const schema = buildFormSchema(entity, items, meta.enums, mode)
  const grid = (schema.properties as Record<string, ISchema>).grid
  return { items, grid, fields: grid.properties as Record<string, ISchema> }
}

/** What the browser shows for a value, exactly as the field's x-validator answers it. */
function message(fields: Record<string, ISchema>, name: string, value: unknown): string {
  const validator = fields[name]['x-validator'] as (v: unknown) => string
  return validator(value)
}

describe('supplier form built from its entity file', () => {
  it('lays the items on a 24-column grid, 8 wide unless the item says otherwise', () => {
    const { grid, fields } = schemaOf('supplier', 'add')
    expect(grid['x-component']).toBe('FormGrid')
    expect(grid['x-component-props']).toMatchObject({ maxColumns: 24, minColumns: 24 })
    expect(fields.code['x-decorator-props']).toMatchObject({ gridSpan: 8, asterisk: true })
    expect(fields.address['x-decorator-props']).toMatchObject({ gridSpan: 24 })
    expect(fields.description['x-decorator-props']).toMatchObject({ gridSpan: 24, asterisk: false })
  })

  it('chooses a control per field type', () => {
    const { fields } = schemaOf('supplier', 'add')
    expect(fields.code['x-component']).toBe('Input')
    expect(fields.manageType['x-component']).toBe('Select')
    expect(fields.manageType.enum).toEqual([{ label: '经销', value: 1 }])
    expect(fields.settleType.enum).toEqual([
      { label: '款到发货', value: 1 },
      { label: '货到付款', value: 2 },
    ])
    expect(fields.deliveryCycle['x-component']).toBe('NumberPicker')
    expect(fields.cityId['x-component']).toBe('RegionCascader')
    expect(fields.description['x-component']).toBe('Input.TextArea')
    expect(fields.code['x-component-props']).toMatchObject({ 'aria-label': '编号' })
  })

  it('shows only the items of the mode: status is not asked when adding', () => {
    expect(schemaOf('supplier', 'add').fields.available).toBeUndefined()
    expect(schemaOf('supplier', 'modify').fields.available['x-component']).toBe('BooleanSwitch')
  })

  it('locks the settle type once created (disabledIn modify, immutable)', () => {
    expect(schemaOf('supplier', 'add').fields.settleType['x-disabled']).toBeUndefined()
    expect(schemaOf('supplier', 'modify').fields.settleType['x-disabled']).toBe(true)
  })

  it('validates with the spec messages, the same the server answers', () => {
    const { fields } = schemaOf('supplier', 'add')
    expect(message(fields, 'code', '')).toBe('请输入编号')
    expect(message(fields, 'code', '   ')).toBe('请输入编号')
    expect(message(fields, 'code', 'a b')).toBe('编号必须由字母、数字、“-_.”组成，长度不能超过20位')
    expect(message(fields, 'code', 'S-001')).toBe('')
    expect(message(fields, 'name', undefined)).toBe('请输入名称')
    expect(message(fields, 'mnemonicCode', '')).toBe('请输入助记码')
    expect(message(fields, 'email', 'not-mail')).toBe('邮箱地址格式不正确')
    expect(message(fields, 'email', '')).toBe('')
    expect(message(fields, 'settleType', undefined)).toBe('请选择结账方式')
    expect(message(fields, 'manageType', null)).toBe('请选择经营方式')
    expect(message(fields, 'deliveryCycle', 1.5)).toBe('送货周期（天）必须为整数')
    expect(message(fields, 'deliveryCycle', 0)).toBe('送货周期（天）必须大于0')
    expect(message(fields, 'deliveryCycle', 3)).toBe('')
    expect(message(fields, 'description', '一二三四五六七八九十一二三四五六七八九十一')).toBe('备注长度不能超过20个字符')
  })

  it('opens an add form with the declared defaults (distribution for manage type)', () => {
    const values = initialFormValues(formItems(supplier, 'add', meta.lookup), 'add')
    expect(values.manageType).toBe(1)
    expect(values.settleType).toBeUndefined()
  })

  it('opens a modify form with the record values', () => {
    const record = { id: 'x', code: 'S1', name: '甲', available: false, settleType: 2 }
    const values = initialFormValues(formItems(supplier, 'modify', meta.lookup), 'modify', record)
    expect(values).toMatchObject({ code: 'S1', name: '甲', available: false, settleType: 2 })
  })

  it('trims text on submit, sends blanks as null and leaves locked fields out', () => {
    const items = formItems(supplier, 'modify', meta.lookup)
    const body = toSubmitValues(items, { code: '  S1 ', name: ' 供应商 ', email: '', settleType: 2, contact: undefined })
    expect(body.code).toBe('S1')
    expect(body.name).toBe('供应商')
    expect(body.email).toBeNull()
    expect(body.contact).toBeNull()
    expect('settleType' in body).toBe(false)
  })

  it('reports the first failing message in form order', () => {
    const items = formItems(supplier, 'add', meta.lookup)
    const errors = [
      { path: 'settleType', messages: ['请选择结账方式'] },
      { path: 'name', messages: ['请输入名称'] },
    ]
    expect(firstError(items, errors)).toBe('请输入名称')
  })
})

describe('other entity forms', () => {
  it('uses the tree picker kind for product categories and a picker for brands', () => {
    const { fields } = schemaOf('product', 'add')
    expect(fields.categoryId['x-component']).toBe('PickerInput')
    expect(fields.categoryId['x-component-props']).toMatchObject({ kind: 'category', multiple: false })
    expect(fields.brandId['x-component-props']).toMatchObject({ kind: 'brand' })
    expect(message(fields, 'categoryId', undefined)).toBe('请选择类目')
  })

  it('keeps decimals as exact text with the declared scale', () => {
    const { fields } = schemaOf('product', 'add')
    expect(fields.purchasePrice['x-component-props']).toMatchObject({ stringMode: true, precision: 2 })
    expect(message(fields, 'purchasePrice', '-1')).toBe('采购价不允许小于0')
  })

  it('shows a ref without a picker as its label (the SKU SPU in detail)', () => {
    const entity = meta.entity('product')
    const items = formItems(entity, 'detail', meta.lookup)
    const schema = buildFormSchema(entity, items, meta.enums, 'detail', { id: 'p', polyId: 'x', polyName: 'SPU甲' })
    const poly = ((schema.properties as Record<string, ISchema>).grid.properties as Record<string, ISchema>).polyId
    expect(poly['x-component']).toBe('RefText')
    expect(poly['x-component-props']).toMatchObject({ text: 'SPU甲' })
  })

  it('asks the password only when adding a user, and multiple refs hold arrays', () => {
    const add = schemaOf('user', 'add').fields
    expect(add.password['x-component']).toBe('Password')
    expect(message(add, 'password', '')).toBe('请输入密码')
    expect(schemaOf('user', 'modify').fields.password).toBeUndefined()
    expect(add.deptIds.type).toBe('array')
    expect(add.deptIds['x-component-props']).toMatchObject({ kind: 'dept', multiple: true })
    expect(schemaOf('user', 'modify').fields.username['x-disabled']).toBe(true)
  })

  it('edits JSON fields as JSON text and refuses text that does not parse', () => {
    const { fields } = schemaOf('productPoly', 'add')
    expect(fields.properties['x-component']).toBe('JsonInput')
    expect(message(fields, 'properties', '{"a":')).toBe('商品属性格式不正确')
    expect(message(fields, 'properties', [{ id: 'x' }])).toBe('')
  })

  it('lets a feature module render a field itself', () => {
    const entity = meta.entity('productPoly')
    const items = formItems(entity, 'add', meta.lookup, (f) => f.name === 'products')
    expect(items.find((i) => i.field.name === 'products')!.component).toBe('Custom_products')
    expect(items.find((i) => i.field.name === 'properties')!.component).toBe('JsonInput')
  })

  it('gives a switch with no default an explicit false when adding', () => {
    const entity = meta.entity('productPoly')
    const values = initialFormValues(formItems(entity, 'add', meta.lookup), 'add')
    expect(values.multiSaleprop).toBe(false)
  })
})

describe('a field with a write permission', () => {
  const user = meta.entity('user')
  const names = (holds: (key: string) => boolean) => formItems(user, 'add', meta.lookup, undefined, holds).map((i) => i.field.name)

  it('is offered in 新增用户 to a holder of 用户授权 only, as the role picker', () => {
    expect(names((key) => key === 'system:user:permission')).toContain('roleIds')
    expect(formItems(user, 'add', meta.lookup).find((i) => i.field.name === 'roleIds')).toMatchObject({ component: 'PickerInput', pickerKind: 'role' })
    const without = names(() => false)
    expect(without).not.toContain('roleIds')
    expect(without).toContain('positionIds')
  })
})

import { describe, expect, it } from 'vitest'
import { translatorOf } from '../../src/shared/i18n/all-catalogues.js'
import { createTranslator } from '../../src/shared/i18n/translate.js'
import { localeOfAcceptLanguage } from '../../src/shared/i18n/locales.js'
import { buildEntityModel } from '../../src/shared/metadata/entity-model.js'
import type { EntityFile } from '../../src/shared/generated/entity.js'
import { localizeEntityFile } from '../../src/client/i18n/localize-entity.js'
import { translateMenus } from '../../src/client/i18n/translate-menus.js'

describe('catalogue lookup by the Simplified text', () => {
  const t = createTranslator(
    { '数据不存在！': 'The data does not exist!', '第{0}行：{1}': 'Row {0}: {1}', '第{0}行商品{1}': 'Row {0} (product): {1}', '{0}必须为整数': '{0} must be an integer', '{0}至{1}': '{1} back to {0}' },
    { 采购数量: 'Purchase quantity', 编号: 'Code' },
  )

  it('answers an exact entry, and the text itself when no entry covers it', () => {
    expect(t('数据不存在！')).toBe('The data does not exist!')
    expect(t('管理员写的菜单')).toBe('管理员写的菜单')
    expect(t.lookup('管理员写的菜单')).toBeUndefined()
    expect(t('')).toBe('')
  })

  it('fills parameters and translates what they capture (labels, nested messages)', () => {
    expect(t('第3行：编号必须为整数')).toBe('Row 3: Code must be an integer')
    // The more specific pattern wins over the general row prefix.
    expect(t('第12行商品采购数量必须为整数')).toBe('Row 12 (product): Purchase quantity must be an integer')
    // Parameters may come in another order in the translation.
    expect(t('编号至采购数量')).toBe('Purchase quantity back to Code')
    // A label already in English (the browser's localised metadata) passes through the pattern.
    expect(t('Code必须为整数')).toBe('Code must be an integer')
  })

  it('counts a message with an untranslated Chinese parameter as not covered, but still translates what it can', () => {
    expect(t.lookup('备注必须为整数')).toBeUndefined()
    expect(t('备注必须为整数')).toBe('备注 must be an integer')
  })

  it('keeps regular-expression characters of a key literal', () => {
    const r = createTranslator({ '赢率(%)不能超过{0}.': 'Win rate (%) cannot exceed {0}.' })
    expect(r('赢率(%)不能超过100.')).toBe('Win rate (%) cannot exceed 100.')
    expect(r.lookup('赢率X%)不能超过100.')).toBeUndefined()
  })

  it('reads the request language from Accept-Language', () => {
    expect(localeOfAcceptLanguage('en-US,en;q=0.9')).toBe('en-US')
    expect(localeOfAcceptLanguage('en')).toBe('en-US')
    expect(localeOfAcceptLanguage('zh-HK')).toBe('zh-HK')
    expect(localeOfAcceptLanguage('zh-TW,zh;q=0.8')).toBe('zh-HK')
    expect(localeOfAcceptLanguage('zh-Hant')).toBe('zh-HK')
    expect(localeOfAcceptLanguage('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh-CN')
    expect(localeOfAcceptLanguage('fr-FR')).toBe('zh-CN')
    expect(localeOfAcceptLanguage(undefined)).toBe('zh-CN')
  })
})

describe('the real catalogues', () => {
  const en = translatorOf('en-US')
  const hk = translatorOf('zh-HK')

  it('translate server messages with row numbers and labels in English and Traditional Chinese', () => {
    expect(en('第2行商品销售数量必须大于0')).toBe('Row 2 (product): Sale quantity must be greater than 0')
    expect(hk('第2行商品销售数量必须大于0')).toBe('第2行商品銷售數量必須大於0')
    expect(en('请输入名称')).toBe('Please enter Name')
    expect(en('调拨数量不能为空')).toBe('Transfer quantity is required')
    expect(hk('登录已过期，请重新登录！')).toBe('登錄已過期，請重新登錄！')
    expect(translatorOf('zh-CN')('请先登录！')).toBe('请先登录！')
  })

  it('give an entity model its labels, messages and built-in columns in the language', () => {
    const file: EntityFile = {
      name: 'sample',
      table: 'sample',
      label: { 'zh-CN': '商品品牌', 'zh-HK': '商品品牌', 'en-US': 'Product brand' },
      fields: { code: { type: 'string', label: '编号', required: true, unique: true }, memo: { type: 'string', label: '自己写的', required: '请填写' } },
      views: { list: { columns: [{ field: 'code', title: '编号' }] } },
    } as unknown as EntityFile
    const model = buildEntityModel(localizeEntityFile(file, en), 'en-US')
    expect(model.label).toBe('Product brand')
    expect(model.byName.get('code')).toMatchObject({ label: 'Code', requiredMessage: 'Please enter Code', uniqueMessage: 'Code already exists; enter another' })
    expect(model.byName.get('createTime')?.label).toBe('Created at')
    // A label no entry covers shows as written; the field name (the wire) never changes.
    expect(model.byName.get('memo')).toMatchObject({ label: '自己写的', requiredMessage: '请填写' })
    expect((model.file.views?.list?.columns?.[0] as { title: string }).title).toBe('Code')
    const simplified = buildEntityModel(file)
    expect(simplified.label).toBe('商品品牌')
    expect(simplified.byName.get('code')?.requiredMessage).toBe('请输入编号')
  })

  it('title the seeded menus, and leave an admin-written title alone', () => {
    const node = (id: string, title: string, children?: unknown[]) => ({ id, name: id, meta: { title, icon: null, noCache: false }, children })
    const tree = translateMenus([node('1', '商品中心', [node('2', '商品品牌'), node('3', '我的报表')])] as never, en)
    expect(tree[0].meta.title).toBe('Product centre')
    expect(tree[0].children?.map((c) => c.meta.title)).toEqual(['Product brands', '我的报表'])
  })
})

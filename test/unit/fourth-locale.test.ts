import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Ajv } from 'ajv'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadAllCatalogues, translatorOf } from '../../src/shared/i18n/all-catalogues.js'
import { labelIn, localeOfAcceptLanguage, localeOfSetting, locales, registerLocale } from '../../src/shared/i18n/locales.js'
import type { EntityFile } from '../../src/shared/generated/entity.js'
import type { EnumsFile } from '../../src/shared/generated/enums.js'
import { buildEntityModel } from '../../src/shared/metadata/entity-model.js'
import { EnumCatalog } from '../../src/shared/metadata/enum-catalog.js'
import { localizeEntityFile } from '../../src/client/i18n/localize-entity.js'
import { translate } from '../../src/client/i18n/messages.js'
import { FRENCH } from '../fixtures/locale-fr-FR/row.js'

const schemas = path.resolve(import.meta.dirname, '../../schemas')
const json = <T>(file: string) => JSON.parse(readFileSync(path.join(schemas, file), 'utf8')) as T

describe('a fourth language is one catalogue file plus one row of the table', () => {
  beforeAll(async () => {
    registerLocale(FRENCH)
    await loadAllCatalogues()
  })

  it('is offered, kept in the settings and chosen by Accept-Language', () => {
    expect(locales().map((l) => l.name)).toEqual(['简体中文', '繁體中文', 'English', 'Français'])
    expect(localeOfSetting('FR')).toBe('fr-FR')
    expect(localeOfAcceptLanguage('fr-FR,fr;q=0.9,en;q=0.8')).toBe('fr-FR')
    expect(localeOfAcceptLanguage('fr')).toBe('fr-FR')
    // The others still choose as before.
    expect(localeOfAcceptLanguage('zh-TW')).toBe('zh-HK')
    expect(localeOfAcceptLanguage('de-DE')).toBe('zh-CN')
  })

  it("shows the shell's words through its catalogue (no column of the shell's table is needed)", () => {
    expect(translate('fr-FR', 'menu.search')).toBe('Rechercher un menu')
    expect(translate('fr-FR', 'page.workplace')).toBe('Bureau')
    // A word the catalogue lacks stays Simplified rather than empty.
    expect(translate('fr-FR', 'tabs.lock')).toBe('锁定标签栏')
    expect(translate('en-US', 'menu.search')).toBe('Search menus')
  })

  it('shows a list: field labels by the catalogue, entity and enumeration labels fall back to English', () => {
    const t = translatorOf('fr-FR')
    const brand = buildEntityModel(localizeEntityFile(json<EntityFile>('entities/product-brand.json'), t), 'fr-FR')
    expect(brand.label).toBe('Product brand')
    expect(brand.fields.find((f) => f.name === 'name')?.label).toBe('Nom')
    const enums = new EnumCatalog(json<EnumsFile>('enums.json'), 'fr-FR')
    expect(enums.label('AVAILABLE', true)).toBe('Enabled')
    expect(t('共 {0} 条'.replace('{0}', '42'))).toBe('42 lignes au total')
  })

  it('translates server messages with their parameters', () => {
    const t = translatorOf('fr-FR')
    expect(t('请输入名称')).toBe('Veuillez saisir Nom')
    expect(t('第1行商品采购数量必须为整数')).toBe('Ligne 1 (produit) : Quantité achetée doit être un entier')
  })

  it('labels of schemas/ need Simplified only: a missing language falls back to the row’s fallback, then Simplified', () => {
    expect(labelIn({ 'zh-CN': '启用', 'en-US': 'Enabled' }, 'fr-FR')).toBe('Enabled')
    expect(labelIn({ 'zh-CN': '启用' }, 'fr-FR')).toBe('启用')
    expect(labelIn({ 'zh-CN': '启用', 'zh-HK': '' }, 'zh-HK')).toBe('启用')
    expect(labelIn({ 'zh-CN': '启用', 'fr-FR': 'Activé' }, 'fr-FR')).toBe('Activé')

    const ajv = new Ajv({ allErrors: true, strict: false })
    const validEnums = ajv.compile(json<object>('meta/enums.schema.json'))
    const one = (item: Record<string, unknown>) => ({ X: { label: '甲', items: [{ code: 1, key: 'A', ...item }] } })
    expect(validEnums(one({ 'zh-CN': '甲' }))).toBe(true)
    expect(validEnums(one({ 'zh-CN': '甲', 'fr-FR': 'A' }))).toBe(true)
    expect(validEnums(one({ 'en-US': 'A' }))).toBe(false)
    expect(validEnums(one({ 'zh-CN': '甲', colour: 'red' }))).toBe(false)
    expect(validEnums(json<EnumsFile>('enums.json'))).toBe(true)
  })
})

import { pinyin } from 'pinyin-pro'

/** Derivation rules an entity field may declare (`derive.rule`), same in browser and server. */
export const deriveRules = {
  /** Supplier/customer mnemonic code: upper-case initials of the name (供应商 -> GYS). */
  pinyinInitialsUpper: (source: string) =>
    pinyin(source, { pattern: 'first', toneType: 'none', type: 'array', nonZh: 'consecutive' })
      .join('')
      .replace(/[^A-Za-z0-9]/g, '')
      .toUpperCase(),
  /** A route segment from a title: its pinyin in lower case, words joined by "-" (客户列表 -> ke-hu-lie-biao). */
  routeSlug: (source: string) =>
    pinyin(source, { toneType: 'none', type: 'array', nonZh: 'consecutive', v: true })
      .map((word) => word.toLowerCase().replace(/[^a-z0-9]+/g, '-'))
      .join('-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, ''),
}

export type DeriveRule = keyof typeof deriveRules

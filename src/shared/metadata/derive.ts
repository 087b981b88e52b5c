import { pinyin } from 'pinyin-pro'

/** The words of a label: each Chinese character's pinyin, other runs split at every non-ASCII-alphanumeric. */
const pinyinWords = (source: string): string[] =>
  pinyin(source, { toneType: 'none', type: 'array', nonZh: 'consecutive', v: true })
    .flatMap((word) => word.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)

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
    pinyinWords(source)
      .map((word) => word.toLowerCase())
      .join('-'),
  /** A menu's route under its parent's from its title (/crm + 客户列表 -> /crm/ke-hu-lie-biao); '' when the title gives no slug. */
  menuPath: (parentPath: unknown, title: unknown): string => {
    const slug = deriveRules.routeSlug(String(title ?? ''))
    if (!slug) return ''
    const base = typeof parentPath === 'string' ? parentPath.replace(/\/+$/, '') : ''
    return `${base}/${slug}`
  },
  /**
   * A property name from a label, camelCase ASCII (客户名称 -> keHuMingCheng, Email 地址 -> emailDiZhi);
   * '' when the label has no letter or digit. A leading digit is kept: the caller decides how to prefix it.
   */
  camelName: (source: string) =>
    pinyinWords(source)
      .map((word, i) => {
        if (i === 0) return word === word.toUpperCase() ? word.toLowerCase() : word[0].toLowerCase() + word.slice(1)
        return word[0].toUpperCase() + word.slice(1)
      })
      .join(''),
}

export type DeriveRule = keyof typeof deriveRules

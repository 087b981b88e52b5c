import { pinyin } from 'pinyin-pro'

/** Derivation rules an entity field may declare (`derive.rule`), same in browser and server. */
export const deriveRules = {
  /** Supplier/customer mnemonic code: upper-case initials of the name (供应商 -> GYS). */
  pinyinInitialsUpper: (source: string) =>
    pinyin(source, { pattern: 'first', toneType: 'none', type: 'array', nonZh: 'consecutive' })
      .join('')
      .replace(/[^A-Za-z0-9]/g, '')
      .toUpperCase(),
}

export type DeriveRule = keyof typeof deriveRules

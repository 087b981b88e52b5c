import type { EnumsFile } from '../generated/enums.js'
import { labelIn, type Locale } from '../i18n/locales.js'

export type EnumCode = string | number | boolean
/** An item's labels by locale (Simplified always; another language falls back, see labelIn). */
type EnumItem = { 'zh-CN': string }

/**
 * Read access to schemas/enums.json, shared by server validation and browser labels. `locale` is the
 * language labels are shown in (the browser's chosen language; Simplified on the server).
 */
export class EnumCatalog {
  constructor(
    private readonly file: EnumsFile,
    readonly locale: Locale = 'zh-CN',
  ) {}

  has(name: string): boolean {
    return name !== '$schema' && Boolean(this.file[name])
  }

  /** Every enumeration by name with its title, for designers that let an admin choose one. */
  titles(): { name: string; title: string }[] {
    return Object.entries(this.file).flatMap(([name, def]) =>
      name !== '$schema' && def && typeof def === 'object' && 'items' in def ? [{ name, title: typeof def.label === 'string' ? def.label : name }] : [],
    )
  }

  items(name: string) {
    const def = this.file[name]
    return def && typeof def === 'object' && 'items' in def ? def.items : []
  }

  /** Converts a wire value ("1", 1, "true") to the enumeration's code, or undefined when it is none of them. */
  parse(name: string, value: unknown): EnumCode | undefined {
    for (const item of this.items(name)) {
      if (item.code === value || String(item.code) === String(value)) return item.code
    }
    return undefined
  }

  label(name: string, code: unknown, locale: Locale = this.locale): string | undefined {
    const item = this.items(name).find((i) => String(i.code) === String(code))
    return item && labelIn(item, locale)
  }

  /** An item's label in the display language. */
  text(item: EnumItem): string {
    return labelIn(item, this.locale)
  }

  codeKind(name: string): 'integer' | 'string' | 'boolean' {
    const first = this.items(name)[0]?.code
    return typeof first === 'boolean' ? 'boolean' : typeof first === 'number' ? 'integer' : 'string'
  }
}

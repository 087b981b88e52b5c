/**
 * Icon names as menus carry them (000 §2 icon picker: built-in and custom names). The built-in set is
 * antd's (`ShoppingCartOutlined`); a menu brought over from the ancestor system names its icon the
 * way its antd 1.x did (`shopping-cart`, with `-fill` or `-twotone` for the other themes), and such a
 * name draws the same icon instead of nothing.
 */
const THEMES: Record<string, string> = { fill: 'Filled', filled: 'Filled', twotone: 'TwoTone', outline: 'Outlined', outlined: 'Outlined' }

/** The antd component name of a menu icon name: itself when it is one, the converted ancestor name otherwise. */
export function iconComponentName(name: string): string {
  const trimmed = name.trim()
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(trimmed)) return trimmed
  const parts = trimmed.split('-')
  const theme = parts.length > 1 ? THEMES[parts[parts.length - 1]!] : undefined
  const words = theme ? parts.slice(0, -1) : parts
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('') + (theme ?? 'Outlined')
}

/** The ancestor's name of a built-in icon (`ShoppingCartOutlined` → `shopping-cart`), so a search by either finds it. */
export function ancestorIconName(component: string): string {
  const m = /^(.*?)(Outlined|Filled|TwoTone)$/.exec(component)
  if (!m) return component
  const base = m[1]!.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()
  return m[2] === 'Outlined' ? base : `${base}-${m[2] === 'Filled' ? 'fill' : 'twotone'}`
}

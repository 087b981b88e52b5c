import { useEffect, useState, type ComponentType } from 'react'
import { iconComponentName } from './icon-names.js'

type IconComponent = ComponentType<{ className?: string; style?: React.CSSProperties; "aria-hidden"?: boolean }>
type IconModule = Record<string, unknown>

// Menu icons are antd icon names chosen by administrators, so any of them may appear. The full set is
// loaded once, in its own chunk, instead of weighing on the main bundle.
let loaded: IconModule | undefined
let loading: Promise<IconModule> | undefined
const loadIcons = () => (loading ??= import('./all-icons.js').then((m) => (loaded = m as unknown as IconModule)))

function lookup(mod: IconModule | undefined, given: string): IconComponent | undefined {
  const name = iconComponentName(given)
  const candidate = mod?.[name]
  // Icons are forwardRef objects; plain helpers of the module (createFromIconfontCN, …) are functions.
  return candidate && typeof candidate === 'object' && /(Outlined|Filled|TwoTone)$/.test(name) ? (candidate as IconComponent) : undefined
}

/** An antd icon given by name ("SettingOutlined", or the ancestor's "setting"); nothing for an unknown or empty name. */
export function MenuIcon({ name, className, style }: { name?: string | null; className?: string; style?: React.CSSProperties }) {
  const [mod, setMod] = useState<IconModule | undefined>(loaded)
  useEffect(() => {
    if (!name || mod) return
    let alive = true
    void loadIcons().then((m) => alive && setMod(m))
    return () => {
      alive = false
    }
  }, [name, mod])
  if (!name) return null
  const Icon = lookup(mod, name)
  return Icon ? <Icon className={className} style={style} aria-hidden /> : null
}

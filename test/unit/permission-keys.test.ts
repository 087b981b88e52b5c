import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PERMISSION } from '../../src/shared/generated/permission-keys.js'
import type { Menu, MenuSeed } from '../../src/shared/generated/menu.js'

const root = path.resolve(import.meta.dirname, '../..')
const seed = JSON.parse(fs.readFileSync(path.join(root, 'schemas/seed/menus.json'), 'utf8')) as MenuSeed
const seedKeys = (menus: Menu[]): string[] => menus.flatMap((m) => [...(m.permission ? [m.permission] : []), ...seedKeys(m.children ?? [])])
const leaves = (node: unknown): string[] => (typeof node === 'string' ? [node] : Object.values(node as object).flatMap(leaves))

const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name)
    if (e.isDirectory()) return file.endsWith(path.join('shared', 'generated')) ? [] : sources(file)
    return /\.tsx?$/.test(e.name) ? [file] : []
  })

describe('permission keys: one module generated from the menu seed', () => {
  it('holds every key of the menu seed once, and nothing else', () => {
    expect(leaves(PERMISSION).sort()).toEqual(seedKeys(seed.menus).sort())
    expect(PERMISSION.crm.publicSea.claim).toBe('crm:public-sea:claim')
  })

  it('is how server and browser code name a key: no key is written as a string literal in src/', () => {
    const keys = new Set(seedKeys(seed.menus))
    const written: string[] = []
    for (const file of sources(path.join(root, 'src')))
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\*|\/\/|\/\*)/.test(line)) return
          for (const m of line.matchAll(/['"`]([a-z][a-z0-9-]*(?::[a-z0-9-]+)+)['"`]/g))
            if (keys.has(m[1]!)) written.push(`${path.relative(root, file)}:${i + 1} ${m[1]}`)
        })
    expect(written).toEqual([])
  })
})

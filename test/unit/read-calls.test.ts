import { readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AnyCall } from '../../src/shared/contracts/call.js'
import { pickerCalls } from '../../src/shared/contracts/picker-calls.js'

/**
 * A POST that only reads must say so (`reads`): the browser counts every other non-GET call as a write,
 * and a write makes every hidden tab read all its screens again when shown (client/app/pane-freshness.ts).
 * A picker's labels counted as a write made a tab switch with nothing written reload the tab shown.
 */
const dir = path.resolve(import.meta.dirname, '../../src/shared/contracts')
const READ_PATH = /\/(load|query|get|preview)(\/(list|tree))?$/

function contractsIn(value: unknown, seen = new Set<unknown>()): AnyCall[] {
  if (!value || typeof value !== 'object' || seen.has(value)) return []
  seen.add(value)
  const v = value as Record<string, unknown>
  if (typeof v.method === 'string' && typeof v.path === 'string' && typeof v.paramsIn === 'string') return [v as unknown as AnyCall]
  return Object.values(v).flatMap((child) => contractsIn(child, seen))
}

describe('POST calls that read', () => {
  it('are declared reads in every contract module', async () => {
    const all: AnyCall[] = [...contractsIn(pickerCalls('supplier'))]
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) all.push(...contractsIn(await import(path.join(dir, file))))
    const posts = all.filter((c) => c.method === 'POST')
    const reads = posts.filter((c) => READ_PATH.test(c.path))
    expect(reads.map((c) => c.path)).toContain('/selector/supplier/load')
    expect(reads.filter((c) => !c.reads).map((c) => c.path)).toEqual([])
    // The writes stay writes.
    expect(posts.filter((c) => c.reads && !READ_PATH.test(c.path)).map((c) => c.path)).toEqual([])
  })
})

import fs from 'node:fs'
import path from 'node:path'

/** The spec's call catalogue, vendored under test/fixtures/spec (method, path, area). */
const catalogue = path.resolve(import.meta.dirname, '../fixtures/spec/endpoints.tsv')
export const catalogueRows = fs
  .readFileSync(catalogue, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .map(([method, url, area]) => ({ method, url, area }))

export const NOT_YET: RegExp[] = []

/** The areas built so far. */
export const AREAS = ['auth', 'center', 'system', 'basedata', 'selector', 'purchase', 'sale', 'retail', 'stock', 'component', 'chart', 'lowcode', 'settle', 'crm', 'logistics', 'qrtz', 'sw', 'message']

/** Every call of the catalogue in the areas built so far that the product serves. */
export const servedCalls = () =>
  catalogueRows.filter((r) => AREAS.includes(r.area) && !NOT_YET.some((p) => p.test(r.url)))

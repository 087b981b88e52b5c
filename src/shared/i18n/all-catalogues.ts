import { registerCatalogues, type Catalogues } from './catalogue.js'
import { locales } from './locales.js'

/**
 * Every language's catalogue of the table, registered on import: what the server (and the tests)
 * translate with. A language registered later (registerLocale) is loaded by loadAllCatalogues.
 */
export const CATALOGUES: Record<string, Catalogues> = {}

export async function loadAllCatalogues(): Promise<void> {
  for (const row of locales()) {
    if (!row.catalogue || CATALOGUES[row.code]) continue
    registerCatalogues(row.code, (CATALOGUES[row.code] = await row.catalogue()))
  }
}

await loadAllCatalogues()

export { catalogueOf, translatorOf } from './catalogue.js'

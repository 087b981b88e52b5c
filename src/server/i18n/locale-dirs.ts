import { readFileSync } from 'node:fs'
import path from 'node:path'
import { registerCatalogues, type Catalogues } from '../../shared/i18n/catalogue.js'
import { CATALOGUE_FILE, LOCALE_FILE, localeDirs, type LocaleFolder } from '../../shared/i18n/locale-folder.js'
import { registerLocale } from '../../shared/i18n/locales.js'

const browserOnly = () => Promise.reject(new Error('antd and dayjs texts are the browser’s'))

/** Adds the languages of the folders in `LOCALE_DIRS` to the table, so the server answers in them too. */
export function registerLocaleDirs(value = process.env.LOCALE_DIRS): void {
  for (const dir of localeDirs(value, path.delimiter)) {
    const row = JSON.parse(readFileSync(path.join(dir, LOCALE_FILE), 'utf8')) as LocaleFolder
    const catalogue = JSON.parse(readFileSync(path.join(dir, CATALOGUE_FILE), 'utf8')) as Catalogues
    registerLocale({ ...row, antd: browserOnly, loadDayjs: browserOnly, catalogue: async () => catalogue })
    registerCatalogues(row.code, catalogue)
  }
}

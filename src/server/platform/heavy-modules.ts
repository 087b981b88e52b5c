/**
 * Libraries only one feature needs, loaded on that feature's first use. Imported eagerly, each holds
 * memory from start-up on whether the feature is used or not (measured alone on Node 20, resident
 * set over a bare process: exceljs +27 MB, json-schema-to-typescript with prettier +21 MB,
 * @e965/xlsx +11 MB, svg-captcha +11 MB), and the idle server and an import of a million rows have
 * a memory budget (issue 14: 300 MB).
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () => {
    if (!loading) {
      loading = load()
      // A failed load (a missing package) is tried again next time rather than remembered.
      loading.catch(() => (loading = undefined))
    }
    return loading
  }
}

/** ExcelJS: templates, exports and the spreadsheet (an .xlsx import reads without it: xlsx-rows.ts). */
export const loadExcelJs = once(async () => (await import('exceljs')).default)

/** SheetJS: the .xls import. */
export const loadSheetJs = once(() => import('@e965/xlsx'))

/** json-schema-to-typescript: the entity generator's type output. */
export const loadSchemaToTs = once(() => import('json-schema-to-typescript'))

/** svg-captcha: the login captcha. */
export const loadSvgCaptcha = once(async () => (await import('svg-captcha')).default)

/** pdfme's generator and its element plugins: printing (modules/print). */
export const loadPdfme = once(async () => {
  const [generator, schemas] = await Promise.all([import('@pdfme/generator'), import('@pdfme/schemas')])
  return { generate: generator.generate, schemas }
})

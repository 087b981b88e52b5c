import type * as PdfmeSchemas from '@pdfme/schemas'

/** pdfme's plugins of the element types a print template holds, under the type names it stores (designer and server alike). */
export const printPlugins = (plugins: typeof PdfmeSchemas) => ({
  text: plugins.text,
  table: plugins.table,
  image: plugins.image,
  line: plugins.line,
  rectangle: plugins.rectangle,
  ellipse: plugins.ellipse,
  qrcode: plugins.barcodes.qrcode,
  code128: plugins.barcodes.code128,
})

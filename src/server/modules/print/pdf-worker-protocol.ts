import type { PrintSchema } from '../../../shared/print/print-template.js'

/** The paper as pdfme's table lays it out: its size in mm and no padding (render-pdf.ts prints over a real page). */
export interface PdfPage {
  width: number
  height: number
  padding: [number, number, number, number]
}

/** What the print thread asks of the PDF worker (pdf-worker.ts): only pdfme's work, no database, no models. */
export type PdfRequest =
  | { id: number; kind: 'heights'; table: PrintSchema; page: PdfPage; cells: string[] }
  | { id: number; kind: 'generate'; basePdf: Uint8Array; schemas: PrintSchema[]; inputs: Record<string, string>[]; page: PdfPage }

/** The worker's answer: the table's row heights per document, the PDF's bytes (transferred), or pdfme's error. */
export type PdfAnswer = { id: number; heights: number[][] } | { id: number; pdf: ArrayBuffer } | { id: number; error: string }

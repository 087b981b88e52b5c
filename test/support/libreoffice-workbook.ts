/**
 * An .xlsx written the way LibreOffice Calc saves one, for the import bench and the reader's tests: every
 * text cell of the sheet is a shared string (`t="s"`), each string item split into font runs
 * (`<si><r><rPr>…</rPr><t xml:space="preserve">…</t></r>…</si>`, no phonetic runs), rows and cells with
 * all of Calc's attributes; cells given as `{ inline }` are inline rich strings (`t="inlineStr"`), as other
 * programs write them. Texts are escaped as XML, so `&`, `<` and the like reach the file as entities.
 */
import JSZip from 'jszip'

export type CalcCell = string | number | { inline: string } | null

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Calc's run properties: the default font spelled out on every run. */
const RUN_PROPS = '<rPr><sz val="10"/><rFont val="Arial"/><family val="2"/></rPr>'
const BOLD_PROPS = '<rPr><b val="true"/><sz val="10"/><rFont val="Arial"/><family val="2"/></rPr>'

/** A text as Calc's font runs: cut after its first character (a run per formatting change). */
function runs(text: string): string {
  const chars = [...text]
  if (chars.length < 2) return `<r>${RUN_PROPS}<t xml:space="preserve">${escape(text)}</t></r>`
  return `<r>${BOLD_PROPS}<t xml:space="preserve">${escape(chars[0])}</t></r><r>${RUN_PROPS}<t xml:space="preserve">${escape(chars.slice(1).join(''))}</t></r>`
}

function columnName(n: number): string {
  let s = ''
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s
  return s
}

/** The workbook's bytes: one sheet `name` holding `rows` (the first row is row 1). */
export async function calcWorkbook(name: string, rows: Iterable<CalcCell[]>): Promise<Buffer> {
  const strings = new Map<string, number>()
  const items: string[] = []
  let count = 0
  const sheet: string[] = [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${NS}" xmlns:r="${REL}"><sheetPr filterMode="false"><pageSetUpPr fitToPage="false"/></sheetPr>` +
      '<dimension ref="A1"/><sheetViews><sheetView showFormulas="false" showGridLines="true" tabSelected="true" workbookViewId="0"><selection pane="topLeft" activeCell="A1" sqref="A1"/></sheetView></sheetViews>' +
      '<sheetFormatPr defaultColWidth="11.53515625" defaultRowHeight="12.8" zeroHeight="false" outlineLevelRow="0" outlineLevelCol="0"/><sheetData>',
  ]
  let line = 0
  for (const row of rows) {
    line++
    const cells: string[] = []
    row.forEach((value, i) => {
      if (value === null || value === '') return
      const ref = `${columnName(i + 1)}${line}`
      if (typeof value === 'number') cells.push(`<c r="${ref}" s="0" t="n"><v>${value}</v></c>`)
      else if (typeof value === 'object') cells.push(`<c r="${ref}" s="0" t="inlineStr"><is>${runs(value.inline)}</is></c>`)
      else {
        count++
        let index = strings.get(value)
        if (index === undefined) {
          strings.set(value, (index = items.length))
          items.push(`<si>${runs(value)}</si>`)
        }
        cells.push(`<c r="${ref}" s="0" t="s"><v>${index}</v></c>`)
      }
    })
    sheet.push(`<row r="${line}" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false">${cells.join('')}</row>`)
  }
  sheet.push(
    '</sheetData><printOptions headings="false" gridLines="false" gridLinesSet="true" horizontalCentered="false" verticalCentered="false"/>' +
      '<pageMargins left="0.7875" right="0.7875" top="1.05277777777778" bottom="1.05277777777778" header="0.7875" footer="0.7875"/></worksheet>',
  )
  const zip = new JSZip()
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
  )
  zip.file('_rels/.rels', `<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${NS}" xmlns:r="${REL}"><fileVersion appName="Calc"/><workbookPr backupFile="false" showObjects="all" date1904="false"/><workbookProtection/>` +
      `<bookViews><workbookView showHorizontalScroll="true" showVerticalScroll="true" showSheetTabs="true" xWindow="0" yWindow="0" windowWidth="16384" windowHeight="8192" tabRatio="500" firstSheet="0" activeTab="0"/></bookViews>` +
      `<sheets><sheet name="${escape(name)}" sheetId="1" state="visible" r:id="rId2"/></sheets><calcPr iterateCount="100" refMode="A1" iterate="false" iterateDelta="0.001"/></workbook>`,
  )
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/styles" Target="styles.xml"/>` +
      `<Relationship Id="rId2" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId3" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  )
  zip.file(
    'xl/styles.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="${NS}"><numFmts count="1"><numFmt numFmtId="164" formatCode="General"/></numFmts><fonts count="1"><font><sz val="10"/><name val="Arial"/><family val="2"/></font></fonts>` +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border diagonalUp="false" diagonalDown="false"><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="164" fontId="0" fillId="0" borderId="0" applyFont="true" applyBorder="true" applyAlignment="true" applyProtection="true"/></cellStyleXfs>' +
      '<cellXfs count="1"><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyFont="false" applyBorder="false" applyAlignment="false" applyProtection="false"/></cellXfs>' +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
  )
  zip.file('xl/worksheets/sheet1.xml', sheet.join(''))
  zip.file('xl/sharedStrings.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${NS}" count="${count}" uniqueCount="${items.length}">${items.join('')}</sst>`)
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } })
}

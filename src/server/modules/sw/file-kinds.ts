import { imageKind, type UploadKind } from '../../platform/uploads.js'

/** What the first bytes of a file must be for its extension: the file box trusts no extension alone. */
const ZIP = (b: Buffer) => b.length >= 4 && b.readUInt32LE(0) === 0x04034b50
const OOXML = (b: Buffer) => ZIP(b) && b.includes('[Content_Types].xml')
const OLE = (b: Buffer) => b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
const startsWith = (sig: number[]) => (b: Buffer) => b.length >= sig.length && b.subarray(0, sig.length).equals(Buffer.from(sig))
/** Text has no NUL byte (UTF-8 and GBK alike); a binary renamed to .txt has many. */
const TEXT = (b: Buffer) => !b.subarray(0, 64 * 1024).includes(0)
const MP4 = (b: Buffer) => b.length >= 12 && b.subarray(4, 8).toString('latin1') === 'ftyp'
const image = (kind: string) => (b: Buffer) => imageKind(b) === kind

const KINDS: Record<string, { type: string; is: (b: Buffer) => boolean }> = {
  pdf: { type: 'application/pdf', is: startsWith([0x25, 0x50, 0x44, 0x46, 0x2d]) },
  png: { type: 'image/png', is: image('png') },
  jpg: { type: 'image/jpeg', is: image('jpeg') },
  jpeg: { type: 'image/jpeg', is: image('jpeg') },
  gif: { type: 'image/gif', is: image('gif') },
  bmp: { type: 'image/bmp', is: image('bmp') },
  docx: { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', is: OOXML },
  xlsx: { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', is: OOXML },
  pptx: { type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', is: OOXML },
  doc: { type: 'application/msword', is: OLE },
  xls: { type: 'application/vnd.ms-excel', is: OLE },
  ppt: { type: 'application/vnd.ms-powerpoint', is: OLE },
  zip: { type: 'application/zip', is: ZIP },
  rar: { type: 'application/vnd.rar', is: startsWith([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]) },
  '7z': { type: 'application/x-7z-compressed', is: startsWith([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
  txt: { type: 'text/plain; charset=utf-8', is: TEXT },
  csv: { type: 'text/csv; charset=utf-8', is: TEXT },
  mp4: { type: 'video/mp4', is: MP4 },
}

export const FILE_BOX_EXTENSIONS = Object.keys(KINDS)
export const FILE_BOX_MAX_BYTES = 20 * 1024 * 1024

/** The file box's uploads: office documents, PDF, images, archives, text and mp4, up to 20 MB. */
export const FILE_BOX: UploadKind = {
  folder: 'filebox',
  types: Object.fromEntries(Object.entries(KINDS).map(([ext, k]) => [ext, k.type])),
  maxBytes: FILE_BOX_MAX_BYTES,
  missingMessage: '请选择要上传的文件！',
  typeMessage: `只能上传${FILE_BOX_EXTENSIONS.join('、')}格式的文件，且文件内容须与扩展名一致！`,
  sizeMessage: '文件大小不能超过20MB！',
  verify: (bytes, ext) => Boolean(KINDS[ext]?.is(bytes)),
}

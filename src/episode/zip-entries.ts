// Lists member names straight from a ZIP's central directory, so duplicates and raw names stay visible; no decompression.
import { EpisodeError } from './errors.ts'

const EOCD_SIGNATURE = 0x06054b50
const EOCD_MIN_BYTES = 22
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50
const ZIP64_LOCATOR_BYTES = 20
const ZIP64_EOCD_SIGNATURE = 0x06064b50
const CENTRAL_HEADER_SIGNATURE = 0x02014b50
const CENTRAL_HEADER_BYTES = 46
const MAX_COMMENT_BYTES = 0xffff
const UTF8_NAME_FLAG = 0x0800

const _utf8 = new TextDecoder('utf-8')
const _latin1 = new TextDecoder('latin1')

/**
 * The member names of every central-directory entry, in directory order, duplicates kept. Names flagged
 * UTF-8 (bit 11) or valid UTF-8 are decoded as UTF-8, others byte-for-byte as Latin-1.
 */
export function readZipEntryNames(bytes: Uint8Array, source: string): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const eocd = findEndOfCentralDirectory(view, source)
  let count = view.getUint16(eocd + 10, true)
  let offset = view.getUint32(eocd + 16, true)
  if (count === 0xffff || offset === 0xffffffff) ({ count, offset } = readZip64Directory(view, eocd, source))
  const names: string[] = []
  for (let i = 0; i < count; i++) {
    if (offset + CENTRAL_HEADER_BYTES > view.byteLength || view.getUint32(offset, true) !== CENTRAL_HEADER_SIGNATURE) {
      throw invalid(`central directory entry ${i} is truncated or corrupt`, source)
    }
    const flags = view.getUint16(offset + 8, true)
    const nameLength = view.getUint16(offset + 28, true)
    const extraLength = view.getUint16(offset + 30, true)
    const commentLength = view.getUint16(offset + 32, true)
    const nameStart = offset + CENTRAL_HEADER_BYTES
    if (nameStart + nameLength > view.byteLength) throw invalid(`the name of central directory entry ${i} is truncated`, source)
    names.push(decodeName(bytes.subarray(nameStart, nameStart + nameLength), (flags & UTF8_NAME_FLAG) !== 0))
    offset = nameStart + nameLength + extraLength + commentLength
  }
  return names
}

function findEndOfCentralDirectory(view: DataView, source: string): number {
  const last = view.byteLength - EOCD_MIN_BYTES
  const first = Math.max(0, last - MAX_COMMENT_BYTES)
  for (let at = last; at >= first; at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE) return at
  }
  throw invalid('no end-of-central-directory record was found', source)
}

function readZip64Directory(view: DataView, eocd: number, source: string): { count: number, offset: number } {
  const locator = eocd - ZIP64_LOCATOR_BYTES
  if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR_SIGNATURE) {
    throw invalid('the ZIP64 end-of-central-directory locator is missing', source)
  }
  const record = Number(view.getBigUint64(locator + 8, true))
  if (record + 56 > view.byteLength || view.getUint32(record, true) !== ZIP64_EOCD_SIGNATURE) {
    throw invalid('the ZIP64 end-of-central-directory record is missing', source)
  }
  return { count: Number(view.getBigUint64(record + 32, true)), offset: Number(view.getBigUint64(record + 48, true)) }
}

function decodeName(raw: Uint8Array, isUtf8Flagged: boolean): string {
  if (isUtf8Flagged) return _utf8.decode(raw)
  // Many writers (JSZip among them) store UTF-8 without the flag; the reader we load members with assumes UTF-8 too.
  const asUtf8 = _utf8.decode(raw)
  return asUtf8.includes('\uFFFD') ? _latin1.decode(raw) : asUtf8
}

function invalid(detail: string, source: string): EpisodeError {
  return new EpisodeError('EPISODE_ZIP_INVALID', `is not a readable ZIP archive: ${detail}. Re-export or re-download the episode.`, { source })
}

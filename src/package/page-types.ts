// The image types of reference pages: file extension → MIME type, and the extension a page of a type is written
// with; the one table the input route, the harness, `awb mcp --page` and CLI agents' workspaces use. No I/O.

/** MIME type by file extension (lower case, with its dot). */
export const PAGE_MIME_TYPES = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
} as const

export type PageMimeType = (typeof PAGE_MIME_TYPES)[keyof typeof PAGE_MIME_TYPES]

/** The extension (no dot) a page of each type is saved with, e.g. `reference-0001.jpg`. */
export const PAGE_FILE_EXTENSIONS = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
} as const satisfies Record<PageMimeType, string>

/** Sent for a file that is no page image (never the case for a validated package's pages). */
const UNKNOWN_TYPE = 'application/octet-stream'

/** The page MIME type of `path` by its extension (case-insensitive), or undefined when it is no page image. */
export function pageMimeType(path: string): PageMimeType | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  const extension = dot < 0 ? '' : name.slice(dot).toLowerCase()
  return isPageExtension(extension) ? PAGE_MIME_TYPES[extension] : undefined
}

/** The Content-Type / mimeType to announce for `path`: its page type, else `application/octet-stream`. */
export function pageContentType(path: string): string {
  return pageMimeType(path) ?? UNKNOWN_TYPE
}

/** The extension (no dot) to save a page of `mimeType` with; `bin` for a type that is no page image. */
export function pageFileExtension(mimeType: string): string {
  return isPageMimeType(mimeType) ? PAGE_FILE_EXTENSIONS[mimeType] : 'bin'
}

/** True for a MIME type a reference page may have. */
export function isPageMimeType(mimeType: string): mimeType is PageMimeType {
  return Object.hasOwn(PAGE_FILE_EXTENSIONS, mimeType)
}

function isPageExtension(extension: string): extension is keyof typeof PAGE_MIME_TYPES {
  return Object.hasOwn(PAGE_MIME_TYPES, extension)
}

// Turns serialized `{type: "image", data, mimeType}` nodes of a page tool's JSON output into MCP image content
// (runner.md §4.4, environment.md §6 item 3); pure, no I/O.

/** What replaces a promoted image node in the text, so the base64 is not sent twice. */
export const IMAGE_PLACEHOLDER = 'Image attached as MCP image content.'

export interface PromotedImage {
  type: 'image'
  data: string
  mimeType: string
}

export interface PromotedOutput {
  /** The output with every image node replaced by `IMAGE_PLACEHOLDER` (unchanged when it is not JSON). */
  text: string
  /** The images in document order (depth-first, keys in their JSON order). */
  images: PromotedImage[]
}

/** Promotes the images of a JSON string; a string that is not JSON is returned as it is, with no images. */
export function promoteImages(output: string): PromotedOutput {
  let value: unknown
  try {
    value = JSON.parse(output)
  } catch {
    // A page tool's answer is JSON by contract; anything else is relayed verbatim rather than lost.
    return { text: output, images: [] }
  }
  const images: PromotedImage[] = []
  const replaced = replaceImages(value, images)
  return { text: images.length === 0 ? output : JSON.stringify(replaced), images }
}

function replaceImages(value: unknown, images: PromotedImage[]): unknown {
  if (Array.isArray(value)) return value.map(item => replaceImages(item, images))
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  if (record.type === 'image' && typeof record.data === 'string' && typeof record.mimeType === 'string') {
    images.push({ type: 'image', data: record.data, mimeType: record.mimeType })
    return IMAGE_PLACEHOLDER
  }
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(record)) out[key] = replaceImages(item, images)
  return out
}

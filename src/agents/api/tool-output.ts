// Splits a page tool's JSON-string answer into model-readable text and its images; no provider formats here.

/** One image a tool returned (environment.md §4.4 wire form), base64 without a data-URL prefix. */
export interface ToolImage {
  mimeType: string
  data: string
}

export interface ToolOutput {
  /** The answer with each image node replaced by `{type: "image", mimeType, attached: <where>}`. */
  text: string
  images: ToolImage[]
  /** The answer is the `{error, code}` envelope (§4.4). */
  isError: boolean
}

/**
 * Walks the parsed answer and lifts every `{type: "image", mimeType, data}` node out, in document order, so the
 * image reaches the model as an image input rather than as base64 text (the MCP relay does the same, §6 item 3).
 * `attachedAs` says where the model will find the image. A non-JSON answer is passed through as text.
 */
export function splitToolOutput(output: string, attachedAs: string): ToolOutput {
  let parsed: unknown
  try {
    parsed = JSON.parse(output)
  } catch {
    return { text: output, images: [], isError: false }
  }
  const images: ToolImage[] = []
  const replaced = liftImages(parsed, images, attachedAs)
  return { text: images.length === 0 ? output : JSON.stringify(replaced), images, isError: isErrorEnvelope(parsed) }
}

function liftImages(value: unknown, images: ToolImage[], attachedAs: string): unknown {
  if (Array.isArray(value)) return value.map(item => liftImages(item, images, attachedAs))
  if (value === null || typeof value !== 'object') return value
  const image = asImage(value)
  if (image !== undefined) {
    images.push(image)
    return { type: 'image', mimeType: image.mimeType, attached: attachedAs }
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, liftImages(item, images, attachedAs)]))
}

function asImage(value: object): ToolImage | undefined {
  const node = value as { type?: unknown; mimeType?: unknown; data?: unknown }
  if (node.type !== 'image' || typeof node.mimeType !== 'string' || typeof node.data !== 'string') return undefined
  return { mimeType: node.mimeType, data: node.data }
}

function isErrorEnvelope(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const envelope = value as { error?: unknown; code?: unknown }
  return typeof envelope.error === 'string' && typeof envelope.code === 'string'
}

export { bytesToBase64 } from '../../shared/base64.ts'

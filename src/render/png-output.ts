// Encodes what a canvas shows as PNG bytes (the capture output format, §8); no drawing here.
import { RenderError } from './errors.ts'

/** A canvas three.js can draw into: an `OffscreenCanvas` or a (possibly detached) `<canvas>`. */
export type CaptureCanvas = OffscreenCanvas | HTMLCanvasElement

/**
 * PNG bytes of the canvas's current content. Needs a context created with `preserveDrawingBuffer: true`
 * when called after the frame was presented. Throws `RenderError` when the browser cannot encode.
 */
export async function encodeCanvasPng(canvas: CaptureCanvas): Promise<Uint8Array> {
  let blob: Blob | null
  try {
    blob = isOffscreen(canvas)
      ? await canvas.convertToBlob({ type: 'image/png' })
      : await new Promise<Blob | null>(resolve => canvas.toBlob(resolve, 'image/png'))
  } catch (cause) {
    throw new RenderError('RENDER_ENCODE', `the browser could not encode the ${canvas.width}×${canvas.height} capture as PNG: ${String(cause)}`, { cause })
  }
  if (blob === null || blob.type !== 'image/png') {
    throw new RenderError('RENDER_ENCODE', `the browser returned ${blob === null ? 'no image' : blob.type} instead of a PNG for the ${canvas.width}×${canvas.height} capture`)
  }
  return new Uint8Array(await blob.arrayBuffer())
}

function isOffscreen(canvas: CaptureCanvas): canvas is OffscreenCanvas {
  return typeof OffscreenCanvas !== 'undefined' && canvas instanceof OffscreenCanvas
}

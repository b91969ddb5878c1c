// Composes a rendered 3D frame and the caption text onto a 2D canvas; no 3D and no encoding here.
import { RenderError } from '../../render/index.ts'
import { PAGE_CAPTION } from './reference-page-style.ts'

/**
 * Copies `frame` (same size as `out`) into `out` and prints `caption` top-left in the page style;
 * an empty caption prints nothing. Throws `RenderError` (`RENDER_ENCODE`) without a 2D context.
 */
export function composeCaption(out: OffscreenCanvas, frame: OffscreenCanvas, caption: string): OffscreenCanvas {
  const context = out.getContext('2d')
  if (context === null) throw new RenderError('RENDER_ENCODE', 'the page could not create a 2D canvas context to print the caption; the browser lacks OffscreenCanvas 2D')
  context.clearRect(0, 0, out.width, out.height)
  context.drawImage(frame, 0, 0)
  if (caption !== '') {
    context.font = PAGE_CAPTION.font
    context.fillStyle = PAGE_CAPTION.colour
    context.textAlign = 'left'
    context.textBaseline = 'alphabetic'
    context.fillText(caption, PAGE_CAPTION.left, PAGE_CAPTION.baseline)
  }
  return out
}

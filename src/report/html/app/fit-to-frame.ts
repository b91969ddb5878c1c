// Keeps a canvas's drawing size equal to the size its frame gives it on the page (a ResizeObserver on the frame);
// page code: draws nothing itself.

/** A size in CSS pixels. */
export interface FrameSize {
  width: number
  height: number
}

/**
 * Calls `onSize` now with the frame's size (the canvas's parent, else the canvas) and again whenever it changes
 * (window resized, panel reflowed), so the viewer redraws at the size it is shown at instead of a fixed one that
 * the page then stretches. Zero sizes (a hidden or detached frame) are skipped: a 0 × 0 drawing buffer would only
 * be stretched back later. Returns the function that stops watching.
 */
export function fitToFrame(canvas: HTMLCanvasElement, onSize: (size: FrameSize) => void): () => void {
  const frame = canvas.parentElement ?? canvas
  let last: FrameSize = { width: 0, height: 0 }
  const apply = (width: number, height: number) => {
    const size = { width: Math.round(width), height: Math.round(height) }
    if (size.width <= 0 || size.height <= 0 || (size.width === last.width && size.height === last.height)) return
    last = size
    onSize(size)
  }
  apply(frame.clientWidth, frame.clientHeight)
  const observer = new ResizeObserver((entries) => {
    const box = entries.at(-1)?.contentRect
    if (box !== undefined) apply(box.width, box.height)
  })
  observer.observe(frame)
  return () => observer.disconnect()
}

// Test support (page): reads PNG size from IHDR and decodes pixels with the browser's own decoder; asserts nothing.

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** Width and height from the IHDR chunk (bytes 16–23, big-endian), or throws when the bytes are no PNG. */
export function pngSize(png: Uint8Array): { width: number, height: number } {
  if (png.length < 24 || PNG_SIGNATURE.some((byte, i) => png[i] !== byte)) throw new Error('not a PNG: bad signature')
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  if (String.fromCharCode(...png.subarray(12, 16)) !== 'IHDR') throw new Error('not a PNG: first chunk is not IHDR')
  return { width: view.getUint32(16), height: view.getUint32(20) }
}

/** RGBA pixels of a PNG, decoded by the browser (row-major from the top-left). */
export async function decodePng(png: Uint8Array): Promise<ImageData> {
  const bitmap = await createImageBitmap(new Blob([png.slice()], { type: 'image/png' }))
  const { width, height } = bitmap
  const canvas = new OffscreenCanvas(width, height)
  // willReadFrequently keeps the 2d canvas on the CPU, so pixels come back exactly as decoded.
  const context = canvas.getContext('2d', { willReadFrequently: true })
  if (context === null) throw new Error('no 2d context')
  context.drawImage(bitmap, 0, 0)
  bitmap.close()
  return context.getImageData(0, 0, width, height)
}

/** Foreground = every pixel that is not exactly the background colour; count and centroid in pixels. */
export function foreground(image: ImageData, background: readonly [number, number, number]): { count: number, x: number, y: number } {
  let count = 0
  let sx = 0
  let sy = 0
  const { data, width } = image
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] === background[0] && data[i + 1] === background[1] && data[i + 2] === background[2]) continue
    const p = i / 4
    count++
    sx += p % width
    sy += Math.floor(p / width)
  }
  return { count, x: count === 0 ? Number.NaN : sx / count, y: count === 0 ? Number.NaN : sy / count }
}

/** Base64 of bytes (for browser commands that write binary files). */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

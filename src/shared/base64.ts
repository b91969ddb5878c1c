// Base64 of bytes and back, for page and Node alike (no Buffer): images in tool answers and model requests, episode
// archives between Node and its pages. The one definition; every other module imports it.

/** Base64 of `bytes` (chunked: `String.fromCharCode` takes a bounded argument list). */
export function bytesToBase64(bytes: Uint8Array): string {
  const CHUNK = 0x8000
  let binary = ''
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK))
  return btoa(binary)
}

/** The bytes of base64 `text`, in a buffer of their own (so they can be handed to `WebAssembly.Module`). */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

// Base64 of bytes for MCP image content (isomorphic: no Buffer); no other encoding here.

/** Base64 of `bytes` (chunked: `String.fromCharCode` takes a bounded argument list). */
export function bytesToBase64(bytes: Uint8Array): string {
  const CHUNK = 0x8000
  let binary = ''
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK))
  return btoa(binary)
}

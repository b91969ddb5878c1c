// Node only: renders each sample's final scene with the official capture_scene renderer (three.js in headless
// Chromium, the agent camera of the final state), one browser for all samples; no scoring.
import { readFile } from 'node:fs/promises'
import { decodeEpisode, type Episode } from '../../episode/index.ts'
import { bytesToBase64, base64ToBytes, openHeadlessSession } from '../../headless/index.ts'

export interface CaptureTarget {
  key: string
  /** Path of the sample's final.episode.zip. */
  episodePath: string
}

/**
 * One PNG per target whose episode opens and renders; a sample that fails is left out (the report says so).
 * Throws `RenderError` only when the browser cannot start; the caller decides whether that matters.
 */
export async function renderFinalCaptures(targets: readonly CaptureTarget[], log: (line: string) => void): Promise<Map<string, Uint8Array>> {
  const captures = new Map<string, Uint8Array>()
  if (targets.length === 0) return captures
  const session = await openHeadlessSession()
  try {
    for (const target of targets) {
      try {
        // capture_scene on the opened final episode: the latest committed state through its own agent camera.
        const response = await session.run({ episode: bytesToBase64(new Uint8Array(await readFile(target.episodePath))), source: target.episodePath, calls: [{ name: 'capture_scene', arguments: {} }] })
        const png = lastCapture(await decodeEpisode(base64ToBytes(response.episode), { source: target.episodePath }))
        if (png !== undefined) captures.set(target.key, png)
      } catch (error) {
        log(`awb report: no final capture for ${target.key}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  } finally {
    await session.close()
  }
  return captures
}

/** The PNG of the last completed capture_scene call of an episode, if any. */
export function lastCapture(episode: Episode): Uint8Array | undefined {
  for (let i = episode.calls.length - 1; i >= 0; i--) {
    const call = episode.calls[i]!
    if (call.name !== 'capture_scene' || call.status !== 'completed') continue
    const name = JSON.stringify(call.result ?? {}).match(/"observation":"([a-f0-9]{64}\.png)"/)?.[1]
    const bytes = name === undefined ? undefined : episode.observations.get(name)
    if (bytes !== undefined) return bytes
  }
  return undefined
}

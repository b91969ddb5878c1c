// Node only: renders each sample's final scene with the official capture_scene renderer (three.js in headless
// Chromium, the agent camera of the final state), a few pages at once; no scoring.
import { readFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { decodeEpisode, type Episode } from '../../episode/index.ts'
import { bytesToBase64, base64ToBytes, openHeadlessSession } from '../../headless/index.ts'

export interface CaptureTarget {
  key: string
  /** Path of the sample's final.episode.zip. */
  episodePath: string
}

/**
 * One PNG per target whose episode opens and renders; a sample that fails is left out (the report says so). The
 * targets are shared by `pages` headless pages, each its own browser, since a page renders one scene at a time and a
 * full-size run has a hundred (default: one per ten targets, at most one per core and four in all, as a browser costs
 * seconds to start). Throws `RenderError` only when no browser starts; the caller decides whether that matters.
 */
export async function renderFinalCaptures(targets: readonly CaptureTarget[], log: (line: string) => void, pages = defaultCapturePages(targets.length)): Promise<Map<string, Uint8Array>> {
  const captures = new Map<string, Uint8Array>()
  if (targets.length === 0) return captures
  const opened = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(pages, targets.length)) }, () => openHeadlessSession()))
  const sessions = opened.flatMap(result => (result.status === 'fulfilled' ? [result.value] : []))
  try {
    if (sessions.length === 0) throw (opened[0] as PromiseRejectedResult).reason
    let next = 0
    await Promise.all(sessions.map(async (session) => {
      for (let at = next++; at < targets.length; at = next++) {
        const target = targets[at]!
        try {
          // capture_scene on the opened final episode: the latest committed state through its own agent camera.
          const response = await session.run({ episode: bytesToBase64(new Uint8Array(await readFile(target.episodePath))), source: target.episodePath, calls: [{ name: 'capture_scene', arguments: {} }] })
          const png = lastCapture(await decodeEpisode(base64ToBytes(response.episode), { source: target.episodePath }))
          if (png !== undefined) captures.set(target.key, png)
        } catch (error) {
          log(`awb report: no final capture for ${target.key}: ${error instanceof Error ? error.message : String(error)}`)
        }
      }
    }))
  } finally {
    await Promise.all(sessions.map(session => session.close()))
  }
  // In the targets' order, whichever page rendered each.
  return new Map(targets.flatMap(target => (captures.has(target.key) ? [[target.key, captures.get(target.key)!] as const] : [])))
}

/** Pages rendering final captures at once: one per ten targets, at most one per core and four in all. */
function defaultCapturePages(targets: number): number {
  return Math.min(Math.ceil(targets / TARGETS_PER_PAGE), availableParallelism(), 4)
}

/** Final captures worth a browser of their own (each takes about a second; a browser, a few to start). */
const TARGETS_PER_PAGE = 10

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

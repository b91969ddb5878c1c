// Shared assertion for episode rejection tests: the error class, code, archive label and message fragments.
import { expect } from 'vitest'
import { decodeEpisode, EpisodeError } from '../../../src/episode/index.ts'
import type { EpisodeErrorCode } from '../../../src/episode/index.ts'

export const SOURCE = 'fixture.episode.zip'

/** Awaits `promise`, expects an `EpisodeError` with `code` whose message contains the source and every fragment. */
export async function expectEpisodeError(promise: Promise<unknown>, code: EpisodeErrorCode, ...fragments: string[]): Promise<EpisodeError> {
  const error: unknown = await promise.then(() => undefined, (caught: unknown) => caught)
  expect(error).toBeInstanceOf(EpisodeError)
  if (!(error instanceof EpisodeError)) throw new Error('unreachable')
  expect(error.code).toBe(code)
  expect(error.message).toContain(SOURCE)
  for (const fragment of fragments) expect(error.message).toContain(fragment)
  return error
}

/** Decodes `bytes` under the test source label and expects the rejection. */
export function expectRejected(bytes: Uint8Array, code: EpisodeErrorCode, ...fragments: string[]): Promise<EpisodeError> {
  return expectEpisodeError(decodeEpisode(bytes, { source: SOURCE }), code, ...fragments)
}

import { mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { writeFileAtomic } from '../../../src/shared/atomic-write.ts'

// `rename` is the step that makes a write visible; wrapping it lets a test make exactly that step fail, after the
// temporary file was written in full. Every other call goes to the real file system.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>()
  return { ...actual, rename: vi.fn(actual.rename) }
})

let dir: string
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'awb-atomic-')) })
afterEach(async () => {
  vi.mocked(rename).mockClear()
  await rm(dir, { recursive: true, force: true })
})

describe('writeFileAtomic', () => {
  it('creates missing folders, replaces content and leaves no temporary file', async () => {
    const path = join(dir, 'a', 'b', 'file.json')
    await writeFileAtomic(path, 'first')
    await writeFileAtomic(path, new Uint8Array([115, 101, 99, 111, 110, 100]))
    expect(await readFile(path, 'utf8')).toBe('second')
    expect(await readdir(join(dir, 'a', 'b'))).toEqual(['file.json'])
  })

  it('keeps the previous content of its target when the write fails after the new bytes were written, and leaves no temporary file', async () => {
    const target = join(dir, 'file.json')
    await writeFileAtomic(target, 'previous')
    let staged: string | undefined
    vi.mocked(rename).mockImplementationOnce(async (from) => {
      // The new content is complete on disk, beside the target, when the rename fails (EXDEV, ENOSPC, EIO, …).
      staged = await readFile(from, 'utf8')
      throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' })
    })
    await expect(writeFileAtomic(target, 'replacement')).rejects.toThrow('EIO')
    expect(staged).toBe('replacement')
    expect(await readFile(target, 'utf8')).toBe('previous')
    expect(await readdir(dir)).toEqual(['file.json'])
  })

  it('refuses to replace a folder, leaving it whole and no temporary file beside it', async () => {
    // A file cannot be renamed over a directory: the real rename fails after the temporary file was written.
    const target = join(dir, 'target')
    await writeFileAtomic(join(target, 'x'), 'earlier')
    await expect(writeFileAtomic(target, 'replace a folder')).rejects.toThrow()
    expect(await readdir(dir)).toEqual(['target'])
    expect(await readdir(target)).toEqual(['x'])
    expect(await readFile(join(target, 'x'), 'utf8')).toBe('earlier')
  })
})

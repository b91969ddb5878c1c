import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../../../src/shared/atomic-write.ts'

let dir: string
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'awb-atomic-')) })
afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

describe('writeFileAtomic', () => {
  it('creates missing folders, replaces content and leaves no temporary file', async () => {
    const path = join(dir, 'a', 'b', 'file.json')
    await writeFileAtomic(path, 'first')
    await writeFileAtomic(path, new Uint8Array([115, 101, 99, 111, 110, 100]))
    expect(await readFile(path, 'utf8')).toBe('second')
    expect(await readdir(join(dir, 'a', 'b'))).toEqual(['file.json'])
  })

  it('keeps the previous content of its target when the write fails, and leaves no temporary file', async () => {
    // A directory cannot be renamed over by a file: the rename fails after the temporary file was written.
    const target = join(dir, 'target')
    await writeFileAtomic(join(target, 'x'), 'earlier')
    await expect(writeFileAtomic(target, 'replace a folder')).rejects.toThrow()
    expect(await readFile(join(target, 'x'), 'utf8')).toBe('earlier')
    expect(await readdir(dir)).toEqual(['target'])
    expect(await readdir(target)).toEqual(['x'])
  })
})

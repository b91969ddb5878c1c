// "Nothing is there" against the errors the file system really raises, including ones root cannot avoid (a link loop).
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isNotFoundError, systemErrorCode } from '../../../src/shared/fs-errors.ts'

let dir: string
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'awb-fs-errors-')) })
afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

async function failureOf(path: string): Promise<unknown> {
  return readFile(path).then(() => expect.unreachable(`${path} was read`), (error: unknown) => error)
}

describe('isNotFoundError', () => {
  it('is true for a missing file, a path through a file and a name no file can have', async () => {
    await writeFile(join(dir, 'file'), 'x')
    for (const path of [join(dir, 'missing'), join(dir, 'file', 'below'), join(dir, 'n'.repeat(300))]) {
      expect(isNotFoundError(await failureOf(path))).toBe(true)
    }
  })

  it('is false for a failure that is not absence (a link loop, a folder read as a file) and for non-system errors', async () => {
    await symlink(join(dir, 'loop'), join(dir, 'loop'))
    const loop = await failureOf(join(dir, 'loop'))
    expect(systemErrorCode(loop)).toBe('ELOOP')
    expect(isNotFoundError(loop)).toBe(false)
    expect(isNotFoundError(await failureOf(dir))).toBe(false)
    expect(isNotFoundError(new Error('ENOENT in the text only'))).toBe(false)
    expect(systemErrorCode('ENOENT')).toBeUndefined()
  })
})

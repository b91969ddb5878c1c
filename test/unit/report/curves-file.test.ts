// A run's curves.json: absent is an answer (the report computes curves or goes without); unreadable is an error.
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readCurvesFile } from '../../../src/report/html/curves-file.ts'

let dir: string
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'awb-curves-file-')) })
afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

describe('readCurvesFile', () => {
  it('reads a run without curves.json as having none', async () => {
    expect(await readCurvesFile(dir)).toBeUndefined()
  })

  it('does not take a curves.json it cannot read for an absent one (a folder, a link loop)', async () => {
    const path = join(dir, 'curves.json')
    await mkdir(path)
    await expect(readCurvesFile(dir)).rejects.toMatchObject({ code: 'REPORT_INPUT_INVALID', file: path, message: expect.stringContaining('EISDIR') as unknown })
    await rm(path, { recursive: true })
    // A link to itself fails with ELOOP even for root, who ignores permission bits.
    await symlink(path, path)
    await expect(readCurvesFile(dir)).rejects.toMatchObject({ code: 'REPORT_INPUT_INVALID', file: path, message: expect.stringContaining('ELOOP') as unknown })
  })
})

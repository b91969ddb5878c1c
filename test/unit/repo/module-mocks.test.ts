// The unit files share their worker's modules (test/vitest.config.ts): a file that replaces modules must be listed in
// test/module-mocks.ts (it then gets a registry of its own), and a listed file must still replace some; a spy on a
// shared object must be put back by the file that set it.
import { readdir, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MODULE_MOCKING_CALL, MODULE_MOCKING_UNIT_FILES } from '../../module-mocks.ts'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
/** This file, whose examples name the calls it looks for. */
const SELF = 'test/unit/repo/module-mocks.test.ts'

async function unitFiles(): Promise<{ path: string; text: string }[]> {
  const paths = (await readdir(join(ROOT, 'test', 'unit'), { recursive: true })).filter(file => file.endsWith('.test.ts')).map(file => `test/unit/${file.split('\\').join('/')}`).filter(path => path !== SELF)
  return Promise.all(paths.sort().map(async path => ({ path, text: await readFile(join(ROOT, path), 'utf8') })))
}

describe('unit files that share modules', () => {
  it('lists exactly the files that replace modules', async () => {
    const mocking = (await unitFiles()).filter(file => MODULE_MOCKING_CALL.test(file.text)).map(file => file.path)
    expect(mocking).toEqual([...MODULE_MOCKING_UNIT_FILES].sort())
  })

  it('recognises each way of replacing a module', () => {
    for (const call of ["vi.mock('node:fs')", 'vi.doMock(path)', 'vi .resetModules()', 'vi.unmock(x)', 'vi.importMock(x)']) expect(call).toMatch(MODULE_MOCKING_CALL)
    for (const call of ['vi.mocked(rename)', 'vi.fn()', 'vi.spyOn(a, b)', 'mock(x)']) expect(call).not.toMatch(MODULE_MOCKING_CALL)
  })

  it('puts back every spy it sets on a shared object', async () => {
    const unrestored = (await unitFiles()).filter(file => /\bvi\.spyOn\(/.test(file.text) && !/\.mockRestore\(\)|vi\.restoreAllMocks\(\)/.test(file.text)).map(file => file.path)
    expect(unrestored).toEqual([])
  })
})

// `vitest --ui` and the html reporter need @vitest/ui, an optional peer: where it is missing (Vitest 4.1 does not bring
// it) the run says how to install the matching version; where it is there, or neither is asked for, nothing is said.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasVitestUi, missingVitestUiNotice } from '../../../plugin/vitest-ui.ts'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
let bare: string

beforeAll(async () => {
  bare = await mkdtemp(join(tmpdir(), 'awb-no-ui-'))
})
afterAll(async () => {
  await rm(bare, { recursive: true, force: true })
})

describe('missingVitestUiNotice', () => {
  it('names the install command for the running Vitest when the UI or the html reporter is asked for without @vitest/ui', () => {
    expect(hasVitestUi(bare)).toBe(false)
    expect(missingVitestUiNotice({ version: '4.1.12', config: { ui: true, root: bare } })).toBe('awb: vitest --ui needs @vitest/ui, an optional peer of assembly-world-bench that Vitest 4.1.12 does not bring: npm install -D @vitest/ui@4.1.12')
    expect(missingVitestUiNotice({ version: '4.1.12', config: { root: bare, reporters: [['html', {}], 'default'] } })).toMatch(/^awb: the html reporter needs @vitest\/ui.*npm install -D @vitest\/ui@4\.1\.12$/)
  })

  it('says nothing when @vitest/ui resolves from the project, or when neither is asked for', () => {
    expect(hasVitestUi(ROOT)).toBe(true)
    expect(missingVitestUiNotice({ version: '5.1.2', config: { ui: true, root: ROOT } })).toBeUndefined()
    expect(missingVitestUiNotice({ version: '4.1.12', config: { root: bare, reporters: ['default', 'junit'] } })).toBeUndefined()
  })
})

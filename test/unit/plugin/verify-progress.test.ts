// The package check at the start of a run says what it is doing: a progress line on a terminal, start and end lines
// otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPackageWithProgress, type ProgressOutput } from '../../../plugin/verify-progress.ts'
import { createPackageFixture, type PackageFixture } from '../../helpers/package-fixture.ts'

let fixture: PackageFixture

beforeAll(async () => {
  fixture = await createPackageFixture({ samplesPerBlock: 2 })
})
afterAll(async () => {
  await fixture?.cleanup()
})

function capture(isTTY: boolean): ProgressOutput & { text: string } {
  const out = { isTTY, text: '', write: (chunk: string) => { out.text += chunk } }
  return out
}

describe('openPackageWithProgress', () => {
  it('prints a start line and an end line with the sample count when the output is no terminal', async () => {
    const out = capture(false)
    const pkg = await openPackageWithProgress(fixture.root, out)
    expect(pkg.blocks.length).toBe(5)
    const lines = out.text.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toBe(`awb: verifying package ${fixture.root} (every sample's files)…`)
    expect(lines[1]).toMatch(new RegExp(`^awb: verified package ${fixture.root}: 10 samples in \\d+\\.\\d s$`))
  })

  it('rewrites one progress line on a terminal, ending at every sample, then the result line', async () => {
    const out = capture(true)
    await openPackageWithProgress(fixture.root, out)
    const updates = [...out.text.matchAll(/Verifying package (\S+): (\d+)\/(\d+) samples…/g)]
    expect(updates.length).toBeGreaterThan(0)
    expect(updates.at(-1)?.slice(1)).toEqual([fixture.root, '10', '10'])
    expect(out.text).toMatch(/\r\u001B\[2Kawb: verified package \S+: 10 samples in \d+\.\d s\n$/)
  })

  it('clears the progress line and rethrows when the package is broken', async () => {
    const out = capture(true)
    await expect(openPackageWithProgress(`${fixture.root}-missing`, out)).rejects.toMatchObject({ code: 'PACKAGE_NOT_FOUND' })
    expect(out.text.endsWith('\r\u001B[2K')).toBe(true)
  })
})

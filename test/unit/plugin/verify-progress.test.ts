// The package check at the start of a run says what it is doing: a progress line on a terminal, start and end lines
// otherwise.
import { rm, symlink, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPackageOnce, openPackageWithProgress, type ProgressOutput } from '../../../plugin/verify-progress.ts'
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

describe('openPackageOnce', () => {
  const verifiedLines = (out: { text: string }) => out.text.split('\n').filter(line => line.startsWith('awb: verified package '))

  it('verifies a package once per process, by its real path, and again once its benchmark.json changed', async () => {
    // A package of its own: the cache is process-wide, so the other tests' opens must not count here.
    const own = await createPackageFixture({ samplesPerBlock: 1 })
    try {
      const out = capture(false)
      const first = await openPackageOnce(own.root, out)
      // Both at once, as the root config and the block projects' configs ask: still one verification.
      const [again, alsoAgain] = await Promise.all([openPackageOnce(own.root, out), openPackageOnce(`${own.root}/`, out)])
      expect(again).toBe(first)
      expect(alsoAgain).toBe(first)
      const link = `${own.root}-link`
      await symlink(own.root, link)
      expect(await openPackageOnce(link, out)).toBe(first)
      expect(verifiedLines(out)).toHaveLength(1)
      // A changed package (its benchmark.json rewritten: a new modification time) is verified again.
      const later = new Date(Date.now() + 60_000)
      await utimes(join(own.root, 'benchmark.json'), later, later)
      const changed = await openPackageOnce(own.root, out)
      expect(changed).not.toBe(first)
      expect(verifiedLines(out)).toHaveLength(2)
    } finally {
      await own.cleanup()
      await rm(`${own.root}-link`, { force: true })
    }
  })

  it('keeps no failed verification: the next call reports it again', async () => {
    const missing = `${fixture.root}-missing-once`
    await expect(openPackageOnce(missing, capture(false))).rejects.toMatchObject({ code: 'PACKAGE_NOT_FOUND' })
    await expect(openPackageOnce(missing, capture(false))).rejects.toMatchObject({ code: 'PACKAGE_NOT_FOUND' })
  })
})

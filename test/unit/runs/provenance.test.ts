import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { codeCommit, runVersions } from '../../../src/runs/index.ts'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')

describe('run provenance', () => {
  it('records the versions that decide results: node, the harness, Vitest, Playwright, MuJoCo, three.js, the MCP SDK', () => {
    const versions = runVersions(ROOT)
    // The Vitest the lockfile pins (Vitest 5 at the root; each test leg runs with its own lockfile).
    const locked = (JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> }).packages['node_modules/vitest']!.version
    expect(versions).toMatchObject({ node: process.versions.node, vitest: locked, '@mujoco/mujoco': '3.12.0', three: expect.any(String), playwright: expect.any(String), '@modelcontextprotocol/sdk': expect.any(String) })
  })

  it('records the git commit of a checkout, and null outside git', async () => {
    // The project's tests run in a clone (README's set-up, CI).
    expect(codeCommit(ROOT)).toMatch(/^[0-9a-f]{40}(-dirty)?$/)
    const outside = await mkdtemp(join(tmpdir(), 'awb-nogit-'))
    try {
      expect(codeCommit(outside)).toBeNull()
    } finally {
      await rm(outside, { recursive: true, force: true })
    }
  })
})

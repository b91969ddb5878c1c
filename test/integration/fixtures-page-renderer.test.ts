// resolvePageRenderer (fixtures/generator/page-renderers.ts): the generator's PageRenderer over the headless
// reference-page renderer; absent without Chromium, closes and reopens with the same bytes.
import { PNG } from 'pngjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { assertPng, resolvePageRenderer, type PageRenderRequest } from '../../fixtures/generator/index.ts'
import { buildSetupEpisode } from '../helpers/episode-fixture.ts'

const episode = buildSetupEpisode({ parts: 2 })

// A generator-shaped request: meshes and source ids ride along but the world holds the geometry.
const request: PageRenderRequest = {
  block: 'ikea-manualbook',
  sampleId: 'Chair/fixture',
  page: 2,
  kind: 'step',
  step: 2,
  caption: 'Step 2',
  world: episode.world,
  camera: episode.initial.camera,
  parts: [1, 2].map(part => ({
    bodyId: `part-000${part}`,
    sourceId: String(part - 1),
    mesh: { vertices: new Float64Array(0), faces: new Uint32Array(0) },
    position: [0, 0, 0],
    quaternion: [1, 0, 0, 0],
    visible: true,
    highlighted: part === 2,
  })),
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('resolvePageRenderer', () => {
  it('is undefined when the machine has no Chromium, so awb fixtures refuses instead of failing mid-run', async () => {
    vi.stubEnv('AWB_CHROMIUM', '/nonexistent/chromium')
    expect(await resolvePageRenderer()).toBeUndefined()
  })

  it('renders generator requests as 1024×768 PNGs and gives the same bytes after close() reopens the browser', async () => {
    const renderer = await resolvePageRenderer()
    expect(renderer).toBeDefined()
    if (renderer === undefined) return
    try {
      expect(renderer.name).toBe('three-r187/webgl2 (headless chromium)')
      const first = await renderer.render(request)
      assertPng(first, 'test page', renderer.name)
      const png = PNG.sync.read(Buffer.from(first))
      expect([png.width, png.height]).toEqual([1024, 768])
      await renderer.close()
      const reopened = await renderer.render(request)
      expect(Buffer.from(reopened).equals(Buffer.from(first))).toBe(true)
    } finally {
      await renderer.close()
    }
  })

  it('names the block, sample and page when a page cannot be drawn', async () => {
    const renderer = await resolvePageRenderer()
    if (renderer === undefined) throw new Error('no Chromium for this test')
    try {
      const broken = { ...request, parts: [{ ...request.parts[0]!, bodyId: 'part-0007' }] }
      await expect(renderer.render(broken)).rejects.toThrow(/ikea-manualbook \/ Chair\/fixture page 2/)
    } finally {
      await renderer.close()
    }
  })
})

describe('resolvePageRenderer idle close', () => {
  it('closes its browser by itself when no page comes, so a caller that never calls close() still exits', async () => {
    const { execFile } = await import('node:child_process')
    const { fileURLToPath } = await import('node:url')
    const script = fileURLToPath(new URL('../unit/headless/support/render-without-close.ts', import.meta.url))
    // The test timeout is the only bound: a browser left open would keep the child alive forever.
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', script], { cwd: fileURLToPath(new URL('../../', import.meta.url)) }, (_error, stdout, stderr) => {
        resolve({ code: child.exitCode, stdout, stderr })
      })
    })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^rendered \d+\n$/)
  })
})

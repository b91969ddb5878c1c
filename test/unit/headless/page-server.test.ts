// The headless page server (awb mcp --episode, env run --render, reference pages, the GPU scoring page) listens on a
// 127.0.0.1 port any local process can reach: it must serve the pages' modules and dependencies, never the bundled
// benchmark's ground truth, the demonstrations, the generator or anything else at the package root.
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openBrowserPage, type BrowserPage } from '../../../src/headless/index.ts'
import { BUNDLED_BENCHMARK, BUNDLED_DEMONSTRATIONS, PACKAGE_ROOT } from '../../../src/shared/package-root.ts'

let opened: BrowserPage

beforeAll(async () => {
  opened = await openBrowserPage({ file: 'reference-pages.html', readyGlobal: '__awbReferencePages' })
}, 120_000)
afterAll(async () => { await opened?.close() })

const EVALUATION = join(BUNDLED_BENCHMARK, readdirSync(BUNDLED_BENCHMARK, { recursive: true, encoding: 'utf8' }).find(p => p.endsWith('evaluation.json'))!)

/** Status of a raw request path (no URL normalisation on our side). */
async function status(path: string): Promise<number> {
  return (await fetch(`${opened.origin}${path}`)).status
}

/** Whether the answer to `path` carries the file's content in any form (plain, or wrapped as a module). */
async function leaks(path: string, file: string): Promise<boolean> {
  const response = await fetch(`${opened.origin}${path}`)
  const body = await response.text()
  const content = readFileSync(file, 'utf8')
  // A distinctive stretch of the file, as it would appear raw or JSON-escaped inside a module.
  const probe = content.slice(0, 60)
  return response.status === 200 && (body.includes(probe) || body.includes(JSON.stringify(probe).slice(1, -1)))
}

describe('headless page server', () => {
  it('serves the page modules and their dependencies (control)', async () => {
    expect(await status(`/@fs${join(PACKAGE_ROOT, 'src', 'shared', 'mulberry32.ts')}`)).toBe(200)
    expect(await status('/@vite/client')).toBe(200)
  })

  it.each([
    ['an evaluation.json of the bundled benchmark', EVALUATION],
    ['the bundled benchmark manifest', join(BUNDLED_BENCHMARK, 'benchmark.json')],
    ['the demonstrations', join(BUNDLED_DEMONSTRATIONS, 'index.json')],
    ['the package root', join(PACKAGE_ROOT, 'package.json')],
  ])('refuses %s by /@fs/, ?raw, ?import and encoded traversal', async (_label, file) => {
    const relative = file.slice(PACKAGE_ROOT.length + 1)
    // The page root is src/headless/page: three levels below the package root.
    for (const path of [`/@fs${file}`, `/@fs${file}?raw`, `/@fs${file}?import`, `/@fs${file}?url`, `/..%2f..%2f..%2f${relative}`, `/%2e%2e/%2e%2e/%2e%2e/${relative}`, `/../../../${relative}?raw`]) {
      expect(await leaks(path, file), path).toBe(false)
    }
    expect(await status(`/@fs${file}`)).toBe(403)
  })

  it('refuses any evaluation.json, even inside a served root', async () => {
    // A package copied under node_modules would lie inside the allowed roots; the name alone is refused there.
    const dir = await mkdtemp(join(PACKAGE_ROOT, 'node_modules', '.awb-page-server-test-'))
    try {
      await writeFile(join(dir, 'evaluation.json'), '{"gt_poses": {}}')
      await writeFile(join(dir, 'other.json'), '{}')
      expect(await status(`/@fs${join(dir, 'other.json')}`)).toBe(200)
      expect(await status(`/@fs${join(dir, 'evaluation.json')}`)).not.toBe(200)
      expect(await status(`/@fs${join(dir, 'evaluation.json')}?raw`)).not.toBe(200)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('headless page server, host actions', () => {
  it('refuses Vite\'s /__open-in-editor, which would start a program on this machine for any local process', async () => {
    // Were the route served, the program would be this harmless one, not the user's editor.
    const launchEditor = process.env.LAUNCH_EDITOR
    process.env.LAUNCH_EDITOR = 'true'
    try {
      for (const path of [`/__open-in-editor?file=${encodeURIComponent(join(PACKAGE_ROOT, 'package.json'))}`, '/__OPEN-IN-EDITOR?file=package.json']) {
        const response = await fetch(`${opened.origin}${path}`)
        expect(response.status, path).toBe(403)
        expect(await response.text(), path).toMatch(/^Refused: during a benchmark run no page or local process may make this machine open a file in an editor/)
      }
    } finally {
      if (launchEditor === undefined) delete process.env.LAUNCH_EDITOR
      else process.env.LAUNCH_EDITOR = launchEditor
    }
  })
})

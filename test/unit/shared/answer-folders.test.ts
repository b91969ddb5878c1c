// Folders that hold answers (src/shared/answer-folders.ts): marked where they are written, recognised wherever they
// are copied, and refused by the serve guard for every path inside them; runs and reports carry the mark.
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isProtectedUrl } from '../../../plugin/serve-guard.ts'
import { writeDemonstrations } from '../../../fixtures/generator/write-package.ts'
import { RunWriter } from '../../../src/runs/index.ts'
import { ANSWERS_MARKER, insideAnswersFolder, isAnswersFolder, markAnswersFolder } from '../../../src/shared/answer-folders.ts'
import { BUNDLED_DEMONSTRATIONS } from '../../../src/shared/package-root.ts'

let root = ''
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'awb-answer-folders-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('answer folders', () => {
  it('a marked folder, and everything inside it, holds answers; its neighbours do not', async () => {
    const report = join(root, 'docs', 'report')
    await mkdir(join(report, 'assets'), { recursive: true })
    await markAnswersFolder(report)
    expect(isAnswersFolder(report)).toBe(true)
    expect(insideAnswersFolder(join(report, 'index.html'))).toBe(true)
    expect(insideAnswersFolder(join(report, 'assets', 'a.png'))).toBe(true)
    expect(insideAnswersFolder(join(report, 'not', 'there', 'yet.json'))).toBe(true)
    expect(insideAnswersFolder(join(root, 'docs', 'index.md'))).toBe(false)
    expect(insideAnswersFolder(join(root, 'docs'))).toBe(false)
  })

  it('a run folder of a version that did not mark its runs (run.json beside seals.jsonl) holds answers too', async () => {
    const run = join(root, 'artifacts', '2026-12-01T000000.000Z-abcdef12')
    await mkdir(join(run, 'blocks'), { recursive: true })
    await writeFile(join(run, 'run.json'), '{}')
    expect(insideAnswersFolder(join(run, 'blocks', 'final.episode.zip'))).toBe(false)
    await writeFile(join(run, 'seals.jsonl'), '')
    // isAnswersFolder asks the file system each time (insideAnswersFolder remembers a no for two seconds).
    expect(isAnswersFolder(run)).toBe(true)
  })

  it('a path through a symlink into a marked folder is inside it too', async () => {
    const run = join(root, 'linked', 'copied-run')
    await mkdir(join(run, 'ikea'), { recursive: true })
    await markAnswersFolder(run)
    await symlink(join(run, 'ikea'), join(root, 'linked', 'latest-block'))
    expect(insideAnswersFolder(join(root, 'linked', 'latest-block', 'final.episode.zip'))).toBe(true)
    expect(insideAnswersFolder(join(root, 'linked', 'latest-block', 'not', 'there.json'))).toBe(true)
    expect(insideAnswersFolder(join(root, 'linked', 'other.json'))).toBe(false)
  })

  it('the serve guard refuses every URL form of a file in a marked folder, outside every protected folder', async () => {
    const copied = join(root, 'project', 'downloaded-run')
    await mkdir(join(copied, 'ikea'), { recursive: true })
    await markAnswersFolder(copied)
    const options = { root: join(root, 'project'), protectedDirs: [] }
    for (const url of ['/downloaded-run/ikea/final.episode.zip', `/@fs${copied}/ikea/final.episode.zip`, '/src/..%2fdownloaded-run/ikea/x', '/?path=downloaded-run/ikea/x']) {
      expect(isProtectedUrl(url, options), url).toBe(true)
    }
    expect(isProtectedUrl('/src/page.ts', options)).toBe(false)
  })

  it('demonstrations are marked where the generator writes them (they solve their samples), and the bundled ones are', async () => {
    const demonstrations = join(root, 'project', 'data', 'demonstrations')
    await writeDemonstrations(demonstrations, new Map([['ikea-manualbook/Chair--x.calls.jsonl', new TextEncoder().encode('{}\n')]]))
    expect(insideAnswersFolder(join(demonstrations, 'ikea-manualbook', 'Chair--x.calls.jsonl'))).toBe(true)
    expect(isAnswersFolder(BUNDLED_DEMONSTRATIONS)).toBe(true)
  })

  it('every run folder is marked when it is created', async () => {
    const writer = await RunWriter.create({ runsRoot: join(root, 'runs'), selection: {}, tasks: {}, referenceModes: {}, options: {}, benchmark: { root: '/pkg', frozen: false, revision: null } })
    expect(await readdir(writer.dir)).toContain(ANSWERS_MARKER)
  })
})

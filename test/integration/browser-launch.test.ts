// A Chromium launch that hangs (the process starts and never answers Playwright) must not hold a block for the 180 s
// its page has to connect: the plugin gives a launch AWB_BROWSER_LAUNCH_TIMEOUT_SECONDS (default 60), and Vitest 5,
// which launches each block's browser ahead of time, launches again when that launch fails. Here the first launch of
// the run hangs and the limit is 5 s: the run passes with its sample scored. (Vitest 4.1 launches no browser ahead of
// time, so there a hung launch fails its block after the limit instead of after 180 s; this file runs on Vitest 5.)
import { existsSync } from 'node:fs'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findChromium } from '../../src/shared/chromium.ts'
import { runBenchmark } from '../helpers/run-benchmark.ts'

let dir: string | undefined
afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

describe.runIf(findChromium() !== undefined)('a Chromium launch that hangs', () => {
  it('is given up after AWB_BROWSER_LAUNCH_TIMEOUT_SECONDS and the block runs in the next launch', async () => {
    dir = await mkdtemp(join(tmpdir(), 'awb-launch-'))
    const hung = join(dir, 'hung')
    const chromium = join(dir, 'chromium')
    // The first launch claims `hung` and waits without answering; every later one is the real Chromium.
    await writeFile(chromium, `#!/bin/sh\nif mkdir ${JSON.stringify(hung)} 2>/dev/null; then exec sleep 600; fi\nexec ${JSON.stringify(findChromium()!)} "$@"\n`)
    await chmod(chromium, 0o755)
    const run = await runBenchmark(['--project', 'ikea-manualbook', '-t', 'Chair/logrelm'], {
      AWB_CHROMIUM: chromium,
      AWB_BROWSER_LAUNCH_TIMEOUT_SECONDS: '5',
      AWB_RUNS: join(dir, 'runs'),
    })
    expect(existsSync(hung), run.output).toBe(true)
    expect(run.code, run.output).toBe(0)
    expect(run.output).toMatch(/awb ikea-manualbook 1\/4 Chair\/logrelm: SR \d/)
  }, 120_000)
})

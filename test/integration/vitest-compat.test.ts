// The compatibility layer against the real Vitest this checkout runs (README's test command runs this file on each
// supported major, one leg each): the startup report names the installed version and turns every capability on, and a
// block project that lacks an integrity defence stops the run before its first sample, naming the defence.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { vitestCli } from '../helpers/vitest-cli.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const INSTALLED = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'vitest', 'package.json'), 'utf8')) as { version: string }).version
const ADAPTER = INSTALLED.startsWith('4.') ? 'vitest-4.1' : 'vitest-5'
const SCRATCH = join(ROOT, '.awb-compat', randomUUID().slice(0, 8))
/**
 * The Vite cache of the configs below, outside the checkout: a `vitest watch` of another test reruns when a file it
 * does not ignore changes there (a cache under the root made it rerun).
 */
const VITE_CACHE = mkdtempSync(join(tmpdir(), 'awb-compat-vite-'))

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true })
  await rm(VITE_CACHE, { recursive: true, force: true })
})

interface ChildRun { code: number | null; output: string; runs: string }

/** `vitest <command> <args>` in the checkout with `config` (a config module's body, written beside the others) and a fresh runs folder. */
async function vitest(command: 'run' | 'list', args: string[], config?: string): Promise<ChildRun> {
  const runs = join(SCRATCH, `runs-${randomUUID().slice(0, 8)}`)
  await mkdir(runs, { recursive: true })
  const configArgs: string[] = []
  if (config !== undefined) {
    const file = join(SCRATCH, `${randomUUID().slice(0, 8)}.config.ts`)
    await writeFile(file, config)
    configArgs.push('--config', file)
  }
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV' && name !== 'TEST'))
  const child = spawn(process.execPath, vitestCli(command, [...args, ...configArgs]), { cwd: ROOT, env: { ...env, AWB_RUNS: runs, NO_COLOR: '1', AWB_REPORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
  const code = await new Promise<number | null>(done => child.on('close', done))
  return { code, output, runs }
}

/**
 * A config with assemblyWorld() and, after it, `plugin` (a plugin object's properties, as source). Its Vite cache is
 * its own: the extra plugin changes the hash Vite keys a project's optimized dependencies by, and a server that finds
 * another hash in `node_modules/.vite/vitest/<project>/deps` deletes that folder and bundles it anew, under the pages
 * of whatever other run of the suite is loading from it (a tester page that then never became ready cost the
 * watch-mode test 180 s, now and then). The plugin keeps one name so that this file's runs share that cache.
 */
function configWith(plugin: string): string {
  return [
    "import { defineConfig } from 'vitest/config'",
    `import { assemblyWorld } from ${JSON.stringify(join(ROOT, 'plugin', 'index.ts'))}`,
    'export default defineConfig({',
    `  root: ${JSON.stringify(ROOT)},`,
    `  cacheDir: ${JSON.stringify(VITE_CACHE)},`,
    "  plugins: [assemblyWorld(), { name: 'compat-probe', ",
    plugin,
    '  }],',
    '})',
    '',
  ].join('\n')
}

/** A config whose extra plugin changes every block project's `test` config. */
function configUndoing(testFields: string): string {
  return configWith([
    '    config(config: { test?: { name?: string } }) {',
    `      return config.test?.name === undefined ? {} : { test: ${testFields} }`,
    '    },',
  ].join('\n'))
}

describe(`the compatibility layer on the installed Vitest (${INSTALLED})`, () => {
  it('names the running Vitest and its adapter, turns every capability on, and prints no deprecation', async () => {
    // `vitest list` resolves every project (and so runs the startup check) without starting a browser.
    const run = await vitest('list', ['--project', 'ikea-manualbook'])
    expect(run.code, run.output).toBe(0)
    const report = run.output.split('\n').find(line => line.startsWith('awb: Vitest'))
    expect(report, run.output).toBe(`awb: Vitest ${INSTALLED} (${ADAPTER} adapter): browser API lock-down [${ADAPTER === 'vitest-5' ? 'test.api' : 'test.browser.api'}] on, host-file commands refused [${ADAPTER === 'vitest-5' ? 7 : 6}] on, browser recovery on, hung-page watch on, Ctrl-C drain on, JUnit suites named by block [${ADAPTER === 'vitest-5' ? 'suiteNameTemplate' : 'writeElement'}] on`)
    expect(run.output).not.toMatch(/deprecat/i)
  }, 120_000)

  it('stops before the first sample when a plugin re-enables the browser API\'s writes, naming the defence', async () => {
    const run = await vitest('run', ['--project', 'ikea-manualbook'], configUndoing('{ api: { allowWrite: true }, browser: { api: { allowWrite: true } } }'))
    expect(run.code, run.output).not.toBe(0)
    expect(run.output).toContain('the integrity defence "browser API lock-down')
    expect(run.output).toContain('allowWrite on')
    expect(run.output).toContain('The run stops before its first sample.')
    expect(run.output).not.toContain('Chair/logrelm')
    // Nothing ran: no run folder was even created.
    expect(existsSync(run.runs) ? await readdir(run.runs) : []).toEqual([])
  }, 120_000)

  it('fails a block at once, naming the request, when its test page loads without Vitest\'s orchestrator module', async () => {
    // What a dependency cache rebuilt under the page does: a module of the page's orchestrator answers 404. Vitest
    // alone would wait out the block's 180 s connect limit and say only that the session did not connect.
    const run = await vitest('run', ['--project', 'ikea-manualbook', '-t', 'Chair/logrelm'], configWith([
      "    enforce: 'pre',",
      '    configureServer(server: { middlewares: { use(handler: (request: { url?: string }, response: { statusCode: number; end(): void }, next: () => void) => void): void } }) {',
      "      server.middlewares.use((request, response, next) => {",
      "        if (request.url?.startsWith('/__vitest_browser__/orchestrator-') === true) { response.statusCode = 404; response.end(); return }",
      '        next()',
      '      })',
      '    },',
    ].join('\n')))
    expect(run.code, run.output).not.toBe(0)
    expect(run.output).toContain('the test page of block ikea-manualbook loaded without Vitest\'s orchestrator: these requests of the page failed:')
    expect(run.output).toMatch(/\/__vitest_browser__\/orchestrator-[\w-]+\.js \(HTTP 404\)/)
    expect(run.output).toContain('give the other config a cacheDir of its own')
    expect(run.output).not.toMatch(/Failed to connect to the browser session/)
  }, 120_000)

  it('stops before the first sample when a plugin replaces a refused host-file command, naming the defence', async () => {
    const run = await vitest('run', ['--project', 'ikea-manualbook'], configUndoing('{ browser: { commands: { readFile: () => \'planted\' } } }'))
    expect(run.code, run.output).not.toBe(0)
    expect(run.output).toContain('the integrity defence "host-file commands refused')
    expect(run.output).toContain('do not refuse readFile')
    expect(existsSync(run.runs) ? await readdir(run.runs) : []).toEqual([])
  }, 120_000)
})

// Page code is untrusted, the harness's own tester page included: a real run (child `vitest run`, real Chromium) whose
// tester page is compromised (test/integration/compromised-page/compromised-setup.ts) forges its tests' outcomes
// (thresholds dropped, a sample that never ran reported as recorded with SR 1), opens Vitest's browser API as
// another project and asks Vitest's RPC to cancel the run, while this process probes the same server's browser API
// as a local process would. Node's ledger decides every verdict, row and JUnit property; every probe is refused; the
// run goes on to its end and fails, naming each attempt.
import { createServer, request, type IncomingMessage, type Server } from 'node:http'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPackageFixture, defaultFixtureBlocks, type PackageFixture } from '../helpers/package-fixture.ts'
import { runBenchmark, type ChildRun } from '../helpers/run-benchmark.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BLOCK = 'partnet-none'
const BLOCKS = defaultFixtureBlocks(2).filter(block => block.name === BLOCK).map(block => ({ ...block, samples: block.samples.map(s => ({ ...s, partIds: ['a', 'b'] })) }))

let fixture: PackageFixture
let work: string
let run: ChildRun
let control: Server
let configDir: string | undefined
/** What the page reported of its own probes, and what the local-process probes got. */
let page: { origin: string; probes: Record<string, string> } | undefined
const outside: Record<string, string> = {}

/** A websocket upgrade of the browser API sent as a local process: the status it got, or 'closed' when refused. */
function rawUpgrade(origin: string, headers: Record<string, string>, query = 'type=tester&rpcId=r&sessionId=guessed&projectName=partnet-none%20(chromium)&token=0'): Promise<string> {
  return new Promise((resolvePromise) => {
    const req = request(`${origin}/__vitest_browser_api__?${query}`, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...headers },
    })
    req.on('upgrade', (res: IncomingMessage, socket) => { socket.destroy(); resolvePromise(`upgraded ${res.statusCode}`) })
    req.on('response', res => { res.resume(); resolvePromise(`answered ${res.statusCode}`) })
    req.on('error', () => resolvePromise('closed'))
    req.end()
  })
}

beforeAll(async () => {
  control = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*')
    const chunks: Buffer[] = []
    req.on('data', chunk => chunks.push(chunk as Buffer))
    req.on('end', () => void (async () => {
      page = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof page
      outside.noOrigin = await rawUpgrade(page!.origin, {})
      outside.foreignOrigin = await rawUpgrade(page!.origin, { origin: 'http://evil.example' })
      outside.nullOrigin = await rawUpgrade(page!.origin, { origin: 'null' })
      outside.guessedSession = await rawUpgrade(page!.origin, { origin: page!.origin })
      res.end('{}')
    })())
  })
  await new Promise<void>(resolvePromise => control.listen(0, '127.0.0.1', resolvePromise))
  const controlUrl = `http://127.0.0.1:${(control.address() as { port: number }).port}`
  fixture = await createPackageFixture({ blocks: BLOCKS })
  work = await mkdtemp(join(tmpdir(), 'awb-compromised-page-'))
  // The benchmark's config plus a setup file in every project: it runs in the tester page, before the block suite.
  // Inside the checkout (an ignored folder), where `vitest/config` resolves.
  await mkdir(join(ROOT, '.awb-hostile'), { recursive: true })
  configDir = await mkdtemp(join(ROOT, '.awb-hostile', 'compromised-page-'))
  // Not named vitest.config.*: that name is one of Vitest's rerun triggers, and a `vitest watch` of another test would
  // rerun on it.
  const config = join(configDir, 'benchmark.config.ts')
  await writeFile(config, [
    `import { defineConfig } from 'vitest/config'`,
    `import { assemblyWorld } from ${JSON.stringify(join(ROOT, 'plugin', 'index.ts'))}`,
    `export default defineConfig({ root: ${JSON.stringify(ROOT)}, plugins: [assemblyWorld()], define: { 'import.meta.env.AWB_TEST_CONTROL': ${JSON.stringify(JSON.stringify(controlUrl))} }, test: { setupFiles: [${JSON.stringify(join(ROOT, 'test', 'integration', 'compromised-page', 'compromised-setup.ts'))}] } })`,
  ].join('\n'))
  // The first sample's agent pushes part b far away: Node scores it SR 0, below the block's threshold.
  await mkdir(join(work, 'demos', BLOCK), { recursive: true })
  await writeFile(join(work, 'demos', BLOCK, 'sample-00.calls.jsonl'), '{"name":"translate_objects","arguments":{"ids":["part-0002"],"delta":[3,0,0]}}\n')
  run = await runBenchmark(['--config', config, '--project', BLOCK, '--reporter=default', '--reporter=junit', `--outputFile.junit=${join(work, 'junit.xml')}`], {
    AWB_BENCHMARK: fixture.root, AWB_DEMONSTRATIONS: join(work, 'demos'), AWB_RUNS: join(work, 'runs'), AWB_SCORING_WORKERS: '1',
    AWB_THRESHOLDS: JSON.stringify({ [BLOCK]: { SR: 1 } }),
  })
}, 300_000)

afterAll(async () => {
  await new Promise<void>(resolvePromise => (control === undefined ? resolvePromise() : control.close(() => resolvePromise())))
  await fixture?.cleanup()
  if (configDir !== undefined) await rm(configDir, { recursive: true, force: true })
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

async function runDir(): Promise<string> {
  const match = /awb: wrote (\S+)\/summary\.json/.exec(run.output)
  expect(match, run.output).not.toBeNull()
  return match![1]!
}

describe('a compromised tester page', () => {
  it('fails the run, naming each contradiction', () => {
    expect(run.code, run.output).toBe(1)
    expect(run.output).toContain(`awb integrity: ${BLOCK} / sample-00 reported a pass, but Node's record fails it: SR of ${BLOCK} / sample-00 is 0 (threshold 1)`)
    expect(run.output).toContain(`awb integrity: ${BLOCK} / sample-01 reported a pass, but Node recorded no attempt of it`)
    expect(run.output).toMatch(/Tests\s+2 failed \(2\)/)
  })

  it('writes JUnit from Node\'s record: both tests failed, the figures Node scored', async () => {
    const junit = await readFile(join(work, 'junit.xml'), 'utf8')
    expect(junit).toMatch(/<testsuite name="partnet-none"[^>]*failures="2"/)
    expect(junit).toContain('<property name="SR" value="0">')
    expect(junit).not.toContain('<property name="SR" value="1">')
    expect(junit).not.toContain('forged')
  })

  it('makes rows only of what Node recorded, and records the contradictions in run.json', async () => {
    const dir = await runDir()
    const rows = (await readFile(join(dir, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { sample_id: string; SR: number })
    expect(rows.map(row => [row.sample_id, row.SR])).toEqual([['sample-00', 0]])
    const runJson = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as { status: string; errors: string[] }
    expect(runJson.status).toBe('failed')
    expect(runJson.errors.join('\n')).toContain('sample-01 reported a pass, but Node recorded no attempt of it')
  })
})

describe('Vitest\'s browser API and RPC, from the page and from a local process', () => {
  it('refuses the page\'s socket naming another project, and its cancel of the run, which goes on to its end', () => {
    expect(page, run.output).toBeDefined()
    expect(page!.probes.foreignProjectSocket).toBe('refused')
    expect(run.output).toMatch(/awb integrity: a browser API connection \(tester, project "another-block"\) from a page of project "partnet-none \(chromium\)" naming another project was refused/)
    // Vitest's RPC is reachable from the tester page: the cancel is asked, and refused in Node.
    expect(page!.probes.rpcCancel).toBe('asked')
    expect(run.output).toContain('awb integrity: a page asked Vitest to cancel the run (keyboard-input) and was refused')
    expect(run.output).not.toMatch(/Unhandled Error|RPC Error|TypeError/)
    // Both tests ran and reported (a cancel would have skipped the second).
    expect(run.output).toMatch(/Tests\s+2 failed \(2\)/)
  })

  it('refuses a local process without a page origin, with a foreign or null one, and with a guessed session', () => {
    expect(outside).toEqual({ noOrigin: 'closed', foreignOrigin: 'closed', nullOrigin: 'closed', guessedSession: 'closed' })
    expect(run.output).toMatch(/without a page origin \(none sent: not a browser page\) was refused/)
    expect(run.output).toMatch(/from the foreign origin http:\/\/evil\.example was refused/)
    expect(run.output).toMatch(/for a session that is not live \("guessed"\) was refused/)
  })
})

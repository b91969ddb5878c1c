// A page agent module that imports a solution at bundle time, in a real run: the plugin hands the bundler the run's
// protected folders, so the module is refused as it is bundled (defence:bundle-reads), the sample fails with the
// reason, and no byte of the solution reaches the output or the run's records. The forms of the attack are in
// test/unit/harness/agent-bundle.test.ts; this proves the wiring, with a file whose name alone gives nothing away.
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { vitestCli } from '../helpers/vitest-cli.ts'

const ROOT = resolve(import.meta.dirname, '..', '..')
const SAMPLE = '44266'
const DEMONSTRATION = join(ROOT, 'fixtures', 'demonstrations', 'partnet-none', `${SAMPLE}.calls.jsonl`)

let scratch: string | undefined
afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
})

describe('a page agent that bundles a solution', () => {
  it('is refused when the run bundles it: the sample fails with the reason and nothing of the solution is recorded', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'awb-bundle-reads-'))
    const runs = join(scratch, 'runs')
    const agent = join(scratch, 'agent.ts')
    await writeFile(agent, [
      `import solution from ${JSON.stringify(`${DEMONSTRATION}?raw`)}`,
      `export default { name: 'copycat', run: async () => { console.log('copycat', solution) } }`,
    ].join('\n'))
    let output = ''
    const child = spawn(process.execPath, vitestCli('run', ['--project', 'partnet-none', '-t', SAMPLE]), {
      cwd: ROOT,
      env: { ...process.env, AWB_AGENT: agent, AWB_RUNS: runs, NO_COLOR: '1', AWB_REPORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
    const code = await new Promise<number | null>(resolvePromise => child.on('close', resolvePromise))
    expect(code, output).not.toBe(0)
    expect(output).toMatch(/could not be loaded: .*44266\.calls\.jsonl.* lies in a protected folder/)
    // A line of the solution: the recorded calls of the demonstration.
    const solutionLine = (await readFile(DEMONSTRATION, 'utf8')).split('\n').find(line => line.includes('"set_object_pose"'))!
    expect(solutionLine).toBeDefined()
    expect(output).not.toContain('copycat')
    const [runId] = await readdir(runs)
    const sampleDir = join(runs, runId!, 'blocks', 'partnet-none', 'samples', SAMPLE)
    const result = JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8')) as unknown
    expect(result).toMatchObject({ status: 'failed', tool_calls: 0, execution: { status: 'failed', error: expect.stringMatching(/could not be loaded: .*44266\.calls\.jsonl lies in a protected folder/) } })
    for (const entry of await readdir(join(runs, runId!), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue
      const file = join(entry.parentPath, entry.name)
      expect((await readFile(file, 'utf8')).includes(solutionLine), file).toBe(false)
    }
  }, 240_000)
})

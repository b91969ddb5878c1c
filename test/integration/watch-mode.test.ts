// Watch mode as the inner loop: `vitest watch` on one sample with a page agent module, then an edit of the module.
// The edit reruns the block (the agent is no import of the test, so the plugin names its bundle's files to Vitest's
// watcher), and the rerun is a run of its own: a new run folder, a fresh attempt, the edited agent's calls recorded.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BLOCK = 'partnet-none'
const SAMPLE = '44266'

/** A page agent that makes the given tool calls (each with `{}` or the first object's id) and answers at once. */
function agentSource(calls: readonly string[]): string {
  return [
    `import { defineAgent } from 'assembly-world-bench/agent'`,
    `export default defineAgent({`,
    `  name: 'watch-${calls.length}',`,
    `  async run({ tools }) {`,
    `    const { objects } = JSON.parse(await tools.call('list_objects', {}))`,
    ...calls.slice(1).map(name => `    await tools.call(${JSON.stringify(name)}, { id: objects[0].id })`),
    `    return { finalAnswer: JSON.stringify({ status: 'completed', summary: 'watch', checked_connections: [], uncertainties: [] }), usage: null, costUsd: null, model: null }`,
    `  },`,
    `})`,
    '',
  ].join('\n')
}

let dir: string | undefined
/** The watching Vitest: killed with its process group here too, so a test that times out leaves nothing running. */
let watcher: ChildProcess | undefined
afterAll(async () => {
  if (watcher?.pid !== undefined && watcher.exitCode === null && watcher.signalCode === null) process.kill(-watcher.pid, 'SIGKILL')
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

describe('watch mode', () => {
  it('reruns the block when the agent module changes, in a new run folder with a fresh attempt', async () => {
    dir = await mkdtemp(join(tmpdir(), 'awb-watch-'))
    const runs = join(dir, 'runs')
    const agent = join(dir, 'agent.ts')
    await writeFile(agent, agentSource(['list_objects']))
    const child = watcher = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'watch', '--project', BLOCK, '-t', SAMPLE], {
      cwd: ROOT,
      env: { ...process.env, AWB_AGENT: agent, AWB_RUNS: runs, GITHUB_STEP_SUMMARY: '', FORCE_COLOR: '0', NO_COLOR: '1', AWB_REPORT: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    })
    let output = ''
    const waiters: (() => void)[] = []
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      for (const wake of waiters.splice(0)) wake()
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    const closed = new Promise<void>(done => child.on('close', () => done()))
    /** Resolves once the output holds `count` lines of a finished watch run (the summary written, run.json closed). */
    const runsEnded = async (count: number) => {
      while ((output.match(/Waiting for file changes/g) ?? []).length < count) {
        if (child.exitCode !== null) throw new Error(`vitest exited:\n${output}`)
        await new Promise<void>(wake => waiters.push(wake))
      }
    }
    try {
      await runsEnded(1)
      expect(output).toMatch(/awb: wrote /)
      await writeFile(agent, agentSource(['list_objects', 'get_object']))
      await runsEnded(2)
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL')
      await closed
    }
    const folders = (await readdir(runs)).sort()
    expect(folders, output).toHaveLength(2)
    const attempts = await Promise.all(folders.map(async (folder) => {
      const run = JSON.parse(await readFile(join(runs, folder, 'run.json'), 'utf8')) as { status: string }
      const sampleDir = join(runs, folder, 'blocks', BLOCK, 'samples', SAMPLE)
      const result = JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8')) as Record<string, unknown>
      const conversation = (await readFile(join(sampleDir, 'conversation.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { type: string; name?: string })
      const summary = JSON.parse(await readFile(join(runs, folder, 'summary.json'), 'utf8')) as unknown
      return { run, result, calls: conversation.filter(entry => entry.type === 'tool_call').map(entry => entry.name), summary }
    }))
    const [first, second] = attempts
    expect(first!.run.status, output).toBe('completed')
    expect(second!.run.status, output).toBe('completed')
    expect(first!.calls).toEqual(['list_objects'])
    // The second run attempted the sample itself, with the edited agent: not the first run's row reported again.
    expect(second!.calls).toEqual(['list_objects', 'get_object'])
    expect(first!.result).toMatchObject({ status: 'completed', tool_calls: 1 })
    expect(second!.result).toMatchObject({ status: 'completed', tool_calls: 2 })
    expect(second!.summary).toBeDefined()
  }, 180_000)
})

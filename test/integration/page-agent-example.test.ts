// README's page agent example (examples/page-agent) in a real run: bundled by path into its realm, its calls recorded,
// its console output in the run's output, the sample scored.
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..')
const SAMPLE = '44266'

let runs: string | undefined
afterAll(async () => {
  if (runs !== undefined) await rm(runs, { recursive: true, force: true })
})

describe('the page agent example', () => {
  it('runs as AWB_AGENT=./examples/page-agent/agent.ts: every tool call recorded, the sample scored', async () => {
    runs = await mkdtemp(join(tmpdir(), 'awb-page-agent-'))
    let output = ''
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--project', 'partnet-none', '-t', SAMPLE], {
      cwd: ROOT,
      env: { ...process.env, AWB_AGENT: './examples/page-agent/agent.ts', AWB_RUNS: runs, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
    const code = await new Promise<number | null>(resolvePromise => child.on('close', resolvePromise))
    expect(code, output).toBe(0)
    // Logged in its realm (a sandboxed frame), printed by the harness in the tester page, collected by Vitest.
    expect(output).toMatch(/example agent: \d+ prompt characters, 0 reference pages, tools: list_objects, /)
    const [runId] = await readdir(runs)
    const sampleDir = join(runs, runId!, 'blocks', 'partnet-none', 'samples', SAMPLE)
    const conversation = (await readFile(join(sampleDir, 'conversation.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as { type: string; name?: string })
    const calls = conversation.filter(entry => entry.type === 'tool_call').map(entry => entry.name)
    expect(calls[0]).toBe('list_objects')
    expect(calls).toContain('get_object')
    expect(calls).toContain('translate_objects')
    expect(conversation.filter(entry => entry.type === 'tool_result')).toHaveLength(calls.length)
    const result = JSON.parse(await readFile(join(sampleDir, 'result.json'), 'utf8')) as Record<string, unknown>
    expect(result).toMatchObject({ status: 'completed', tool_calls: calls.length, agent_outcome: { status: 'completed' } })
    const [row] = (await readFile(join(runs, runId!, 'metrics.jsonl'), 'utf8')).trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>)
    expect(row).toMatchObject({ block: 'partnet-none', sample_id: SAMPLE, status: 'scored', tool_calls: calls.length })
  }, 240_000)
})

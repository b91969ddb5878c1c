// The sandbox settings a run resolves at start (AWB_SANDBOX, AWB_BWRAP, the agent spec's `env`), the flag a run
// records when its agent processes run unsandboxed, and the refusal of a sample when no sandbox can start.
import { describe, expect, it } from 'vitest'
import { isUnsandboxedRun, resolveOptions } from '../../../../plugin/options.ts'
import { DEFAULT_SANDBOX, runsUnsandboxed } from '../../../../src/agents/sandbox/index.ts'
import { sandboxSettingsFromEnv } from '../../../../src/settings/index.ts'
import { agentFor } from '../../../../src/harness/node/agent-spec.ts'
import type { PackageSample } from '../../../../src/package/index.ts'

const ROOT = '/work/project'
const EXTERNAL = JSON.stringify({ command: ['python3', 'agent.py'], env: ['OPENAI_API_KEY'] })

describe('sandbox settings', () => {
  it('on by default: hides the benchmark, the runs folder and the demonstrations, passes the spec\'s env names', () => {
    const options = resolveOptions({}, { AWB_AGENT: EXTERNAL, AWB_BENCHMARK: 'bench', AWB_RUNS: 'out/runs', AWB_DEMONSTRATIONS: 'demos' }, ROOT)
    expect(options.sandbox).toEqual({ enabled: true, bwrap: 'bwrap', hiddenPaths: ['/work/project/bench', '/work/project/out/runs', '/work/project/demos'], passEnv: ['OPENAI_API_KEY'] })
    expect(isUnsandboxedRun(options)).toBe(false)
  })

  it('AWB_SANDBOX=off (or the plugin option) runs agent processes unsandboxed, and the run says so', () => {
    expect(isUnsandboxedRun(resolveOptions({}, { AWB_AGENT: EXTERNAL, AWB_SANDBOX: 'off' }, ROOT))).toBe(true)
    expect(isUnsandboxedRun(resolveOptions({ agent: 'codex', sandbox: 'off' }, {}, ROOT))).toBe(true)
    // Page agents never run as processes: nothing is unsandboxed about them.
    expect(isUnsandboxedRun(resolveOptions({}, { AWB_SANDBOX: 'off' }, ROOT))).toBe(false)
    expect(runsUnsandboxed('claude', { ...DEFAULT_SANDBOX, enabled: false })).toBe(true)
  })

  it('AWB_BWRAP takes a path from the project root or a name on PATH; malformed settings stop the run at start', () => {
    expect(resolveOptions({}, { AWB_BWRAP: 'tools/bwrap' }, ROOT).sandbox.bwrap).toBe('/work/project/tools/bwrap')
    expect(resolveOptions({}, { AWB_BWRAP: 'bwrap-0.8' }, ROOT).sandbox.bwrap).toBe('bwrap-0.8')
    expect(() => resolveOptions({}, { AWB_SANDBOX: 'maybe' }, ROOT)).toThrow(/sandbox/)
    expect(() => resolveOptions({}, { AWB_AGENT: '{"command": ["x"], "env": ["OPENAI_API_KEY=sk-1"]}' }, ROOT)).toThrow(/agent\.env\.0: an environment variable name/)
  })

  it('outside a Vitest run (awb doctor) the same variables apply', () => {
    expect(sandboxSettingsFromEnv({})).toEqual(DEFAULT_SANDBOX)
    expect(sandboxSettingsFromEnv({ AWB_SANDBOX: 'off', AWB_BWRAP: '/opt/bwrap' })).toMatchObject({ enabled: false, bwrap: '/opt/bwrap' })
    expect(() => sandboxSettingsFromEnv({ AWB_SANDBOX: '0' })).toThrow(/AWB_SANDBOX="0": expected one of on, off, e\.g\. AWB_SANDBOX=off/)
  })
})

describe('a sample whose sandbox cannot start', () => {
  const sample = { block: 'b', id: 's', slug: 's' } as PackageSample
  const base = { model: 'm', demonstrations: '/none', externalAgent: ['python3', 'agent.py'] as const }

  it('is refused before its page opens anything, with how to enable the sandbox', async () => {
    const missing = { ...DEFAULT_SANDBOX, bwrap: '/nonexistent/bwrap' }
    for (const agent of ['external', 'codex', 'claude']) {
      const spec = await agentFor({ ...base, agent, sandbox: missing }, sample)
      expect(spec).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/\/nonexistent\/bwrap was not found.*apt-get install bubblewrap.*AWB_SANDBOX=off/) as unknown })
    }
  })

  it('runs when the sandbox starts, or knowingly without it', async () => {
    expect(await agentFor({ ...base, agent: 'external' }, sample)).toMatchObject({ kind: 'cli', cli: 'external' })
    expect(await agentFor({ ...base, agent: 'codex', sandbox: { ...DEFAULT_SANDBOX, enabled: false, bwrap: '/nonexistent/bwrap' } }, sample)).toMatchObject({ kind: 'cli', cli: 'codex' })
  })
})

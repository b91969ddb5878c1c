import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { assertKnownKeys, JSON_EXAMPLES, resolveOptions } from '../../../plugin/options.ts'

describe('plugin options', () => {
  it('caps scoring workers with a clear error naming the variable', () => {
    expect(resolveOptions({}, { AWB_SCORING_WORKERS: '8' }, '/repo').scoringWorkers).toBe(8)
    expect(() => resolveOptions({}, { AWB_SCORING_WORKERS: '5000' }, '/repo')).toThrow(/scoringWorkers: at most 64 scoring workers \(from AWB_SCORING_WORKERS="5000"\), e\.g\. AWB_SCORING_WORKERS=4/)
    expect(() => resolveOptions({ scoringWorkers: 65 }, {}, '/repo')).toThrow(/scoringWorkers: at most 64 scoring workers \(from the plugin options\); e\.g\. scoringWorkers: 4/)
  })

  it('takes the hung-page grace from the option or AWB_HUNG_PAGE_GRACE_SECONDS, default 60 s, refusing less than 10 s', () => {
    expect(resolveOptions({}, {}, '/repo').hungPageGraceSeconds).toBe(60)
    expect(resolveOptions({ hungPageGraceSeconds: 30 }, {}, '/repo').hungPageGraceSeconds).toBe(30)
    expect(resolveOptions({ hungPageGraceSeconds: 30 }, { AWB_HUNG_PAGE_GRACE_SECONDS: '12.5' }, '/repo').hungPageGraceSeconds).toBe(12.5)
    expect(() => resolveOptions({}, { AWB_HUNG_PAGE_GRACE_SECONDS: '2' }, '/repo')).toThrow(/hungPageGraceSeconds: at least 10 s: a page that is only busy for a while must not be closed/)
    expect(() => resolveOptions({}, { AWB_HUNG_PAGE_GRACE_SECONDS: 'soon' }, '/repo')).toThrow(/AWB_HUNG_PAGE_GRACE_SECONDS must be a number, got "soon"/)
  })

  it('checks the variables read at the end of the run or at the first score before anything runs, naming each with an example', async () => {
    expect(() => resolveOptions({}, { AWB_CURVES: 'yes please' }, '/repo')).toThrow(/AWB_CURVES: .*\(use 1 or 0\)/)
    expect(() => resolveOptions({}, { AWB_REPORT: 'off' }, '/repo')).toThrow(/AWB_REPORT: .*\(use 1 or 0\)/)
    expect(() => resolveOptions({}, { AWB_SCORING_BACKEND: 'cuda' }, '/repo')).toThrow(/AWB_SCORING_BACKEND="cuda": expected one of/)
    expect(() => resolveOptions({}, { AWB_BASELINE: 'runs/never-ran' }, '/repo')).toThrow(/AWB_BASELINE=runs\/never-ran: no metrics.jsonl there; point it at a finished run directory, e\.g\. AWB_BASELINE=runs\/<run-id>/)
    const finished = await mkdtemp(join(tmpdir(), 'awb-baseline-'))
    try {
      await writeFile(join(finished, 'metrics.jsonl'), '')
      expect(resolveOptions({}, { AWB_CURVES: '1', AWB_REPORT: '0', AWB_SCORING_BACKEND: 'cpu', AWB_BASELINE: finished }, '/repo').agent).toBe('replay')
    } finally {
      await rm(finished, { recursive: true, force: true })
    }
  })

  it('makes a page agent module path absolute against the project root and keeps agent names as they are', () => {
    expect(resolveOptions({ agent: './agents/mine.ts' }, {}, '/repo').agent).toBe('/repo/agents/mine.ts')
    expect(resolveOptions({}, { AWB_AGENT: 'agent.mjs' }, '/repo').agent).toBe('/repo/agent.mjs')
    expect(resolveOptions({}, { AWB_AGENT: 'openai:gpt-4.1' }, '/repo').agent).toBe('openai:gpt-4.1')
    expect(resolveOptions({}, {}, '/repo').agent).toBe('replay')
  })
})

// Options of the CLI and external agents: effort, Codex overrides and `{command}` programs, each also settable by
// its AWB_* variable (which wins).
describe('agent options', () => {
  it('effort and codexConfig come from options or AWB_EFFORT / AWB_CODEX_CONFIG (the variable wins)', () => {
    expect(resolveOptions({ effort: 'low', codexConfig: ['model_provider="a"'] }, {}, '/p')).toMatchObject({ effort: 'low', codexConfig: ['model_provider="a"'] })
    const fromEnv = resolveOptions({ effort: 'low' }, { AWB_EFFORT: 'high', AWB_CODEX_CONFIG: '["openai_base_url=\\"http://127.0.0.1:1/v1\\""]' }, '/p')
    expect(fromEnv).toMatchObject({ effort: 'high', codexConfig: ['openai_base_url="http://127.0.0.1:1/v1"'] })
    expect(resolveOptions({}, {}, '/p')).toMatchObject({ effort: undefined, codexConfig: [] })
    expect(() => resolveOptions({}, { AWB_CODEX_CONFIG: 'model_provider=x' }, '/p')).toThrow(/AWB_CODEX_CONFIG must be JSON/)
  })

  it('agent: {command} is the external agent; AWB_AGENT may be that JSON object; a name stays a name', () => {
    expect(resolveOptions({ agent: { command: ['python3', 'agent.py'] } }, {}, '/p')).toMatchObject({ agent: 'external', externalAgent: ['python3', 'agent.py'] })
    expect(resolveOptions({}, { AWB_AGENT: '{"command": ["./agent"]}' }, '/p')).toMatchObject({ agent: 'external', externalAgent: ['./agent'] })
    expect(resolveOptions({ agent: { command: ['x'] } }, { AWB_AGENT: 'codex' }, '/p')).toMatchObject({ agent: 'codex', externalAgent: undefined })
    expect(() => resolveOptions({ agent: { command: [] } }, {}, '/p')).toThrow(/agent/)
    expect(() => resolveOptions({}, { AWB_AGENT: '{"cmd": ["x"]}' }, '/p')).toThrow(/agent/)
  })

  it.each(Object.entries(JSON_EXAMPLES))('the example shown for a malformed %s is itself accepted', (name, example) => {
    expect(() => resolveOptions({}, { [name]: example }, '/repo')).not.toThrow()
    expect(() => resolveOptions({}, { [name]: `${example.slice(0, -1)}` }, '/repo')).toThrow(`${name} must be JSON, e.g. ${name}='${example}'`)
  })

  it('refuses a threshold or gate that names no block or source of the package, listing the known ones', () => {
    const blocks = ['partnet-none', 'ikea-manualbook']
    const sources = ['partnet-manualpa', 'ikea-manual']
    expect(() => assertKnownKeys(resolveOptions({}, { AWB_THRESHOLDS: '{"ikea-manualbok": {"SR": 1}}' }, '/repo'), blocks, sources))
      .toThrow(/thresholds \(AWB_THRESHOLDS\) names "ikea-manualbok", not a block of this benchmark; use one of partnet-none, ikea-manualbook or "\*"/)
    expect(() => assertKnownKeys(resolveOptions({ gates: { sources: { ikea: { SR: 1 } } } }, {}, '/repo'), blocks, sources)).toThrow(/gates\.sources .* "ikea", not a source/)
    expect(() => assertKnownKeys(resolveOptions({ gates: { blocks: { '*': { SR: 1 } }, sources: { 'ikea-manual': { PA: 0.5 } } } }, {}, '/repo'), blocks, sources)).not.toThrow()
  })
})

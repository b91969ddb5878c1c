// The settings table (src/settings): every row agrees with its schema, every example is accepted, and a bad value of
// any setting stops a run at start with a coded error naming the variable (or option) and an accepted example.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveOptions } from '../../../plugin/options.ts'
import { SANDBOX_MODES } from '../../../src/agents/sandbox/index.ts'
import { EXTERNAL_AGENT_VARIABLES } from '../../../src/agents/external/index.ts'
import { scoringBackend } from '../../../src/cli/flags.ts'
import { SCORING_BACKEND_CHOICES } from '../../../src/scoring/gpu/index.ts'
import {
  AGENT_PROGRAM_VARIABLES, AssemblyWorldOptionsSchema, EnvironmentOnlySettingsSchema, exampleAssignment, INTERNAL_VARIABLES, sandboxSettingsFromEnv,
  settingFromEnv, SettingsError, USER_VARIABLE_NAMES, USER_VARIABLES,
} from '../../../src/settings/index.ts'
import { findChromium, isExecutable } from '../../../src/shared/chromium.ts'

let root: string

beforeAll(async () => {
  // A project whose `runs/<run-id>` is a finished run: AWB_BASELINE's example then names one.
  root = await mkdtemp(join(tmpdir(), 'awb-settings-'))
  await mkdir(join(root, USER_VARIABLES.AWB_BASELINE.example), { recursive: true })
  await writeFile(join(root, USER_VARIABLES.AWB_BASELINE.example, 'metrics.jsonl'), '')
})

afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

/** The error `run` throws, which must be one. */
function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected an error')
}

describe('the settings table', () => {
  it('sets every plugin option and every environment-only setting by exactly one variable', () => {
    const rows = USER_VARIABLE_NAMES.map(name => USER_VARIABLES[name])
    expect(rows.filter(row => row.pluginOption).map(row => row.option).sort()).toEqual(Object.keys(AssemblyWorldOptionsSchema.shape).sort())
    expect(rows.filter(row => !row.pluginOption).map(row => row.option).sort()).toEqual(Object.keys(EnvironmentOnlySettingsSchema.shape).sort())
  })

  it('lists the words of each enum as its schema does', () => {
    expect(USER_VARIABLES.AWB_SANDBOX.values).toEqual(SANDBOX_MODES)
    expect(USER_VARIABLES.AWB_SCORING_BACKEND.values).toEqual(SCORING_BACKEND_CHOICES)
  })

  it('tells the variables we set for agent programs and our internal names apart from the user\'s', () => {
    expect(Object.keys(AGENT_PROGRAM_VARIABLES).sort()).toEqual(Object.values(EXTERNAL_AGENT_VARIABLES).sort())
    // AWB_MODEL and AWB_TIMEOUT_SECONDS are read from the user, then handed on to the program: the only overlap.
    expect(Object.keys(AGENT_PROGRAM_VARIABLES).filter(name => name in USER_VARIABLES).sort()).toEqual(['AWB_MODEL', 'AWB_TIMEOUT_SECONDS'])
    expect(Object.keys(INTERNAL_VARIABLES).filter(name => name in USER_VARIABLES || name in AGENT_PROGRAM_VARIABLES)).toEqual([])
  })

  it.each(USER_VARIABLE_NAMES)('accepts the example of %s, alone and in a run\'s settings', (name) => {
    const env = { [name]: USER_VARIABLES[name].example }
    expect(settingFromEnv(name, env)).toBeDefined()
    expect(() => resolveOptions({}, env, root)).not.toThrow()
  })
})

describe('settings resolved at start', () => {
  it('carries the end-of-run settings and the scoring backend, with their defaults', () => {
    expect(resolveOptions({}, {}, root)).toMatchObject({ curves: false, baseline: undefined, report: true, scoringBackend: 'auto' })
    const resolved = resolveOptions({}, { AWB_CURVES: '1', AWB_REPORT: 'false', AWB_SCORING_BACKEND: 'cpu', AWB_BASELINE: USER_VARIABLES.AWB_BASELINE.example }, root)
    // The baseline is taken from the project root, as the other paths are.
    expect(resolved).toMatchObject({ curves: true, report: false, scoringBackend: 'cpu', baseline: join(root, USER_VARIABLES.AWB_BASELINE.example) })
  })

  it.each([
    ['AWB_CURVES', 'yes please', /^AWB_CURVES: expected a flag, got "yes please" \(use 1 or 0\), e\.g\. AWB_CURVES=1$/],
    ['AWB_REPORT', 'off', /^AWB_REPORT: expected a flag, got "off" \(use 1 or 0\), e\.g\. AWB_REPORT=0$/],
    ['AWB_SCORING_BACKEND', 'cuda', /^AWB_SCORING_BACKEND="cuda": expected one of auto, cpu, gpu, e\.g\. AWB_SCORING_BACKEND=gpu$/],
    ['AWB_BASELINE', 'runs/never-ran', /^AWB_BASELINE=runs\/never-ran: no metrics\.jsonl there; point it at a finished run directory, e\.g\. AWB_BASELINE=runs\/<run-id>$/],
    ['AWB_GATES', '{"overall": {"SR": 0.5}', /^AWB_GATES must be JSON, e\.g\. AWB_GATES='\{.*\}' \(got .*\)$/],
    ['AWB_GATES', '{"overall": {"SR": 2}}', /overall\.SR: .* \(from AWB_GATES=.*\), e\.g\. AWB_GATES='\{.*\}'$/],
    ['AWB_SANDBOX', 'maybe', /^AWB_SANDBOX="maybe": expected one of on, off, e\.g\. AWB_SANDBOX=off \(the sandbox option\)$/],
    ['AWB_TIMEOUT_SECONDS', 'ten', /^AWB_TIMEOUT_SECONDS must be a number, got "ten", e\.g\. AWB_TIMEOUT_SECONDS=600$/],
  ] as const)('%s=%s stops the run at start, naming the variable and an accepted example', (name, value, message) => {
    const error = thrown(() => resolveOptions({}, { [name]: value }, root))
    expect(error).toBeInstanceOf(SettingsError)
    expect(error).toMatchObject({ code: expect.stringMatching(/^SETTINGS_/) as unknown })
    expect((error as SettingsError).message).toMatch(message)
    expect((error as SettingsError).message).toContain(`e.g. ${exampleAssignment(name)}`)
  })

  it('names the plugin option and an accepted value when the option itself is bad', () => {
    const error = thrown(() => resolveOptions({ scoringWorkers: 65 }, {}, root))
    expect(error).toMatchObject({ code: 'SETTINGS_INVALID', message: 'assemblyWorld options: scoringWorkers: at most 64 scoring workers (from the plugin options); e.g. scoringWorkers: 4' })
    expect(thrown(() => resolveOptions({ gates: { overall: { SR: 2 } } }, {}, root))).toMatchObject({ message: expect.stringContaining('e.g. gates: {"overall":{"SR":0.5}') as unknown })
  })
})

describe('one setting outside a run', () => {
  it('the sandbox of `awb doctor` follows AWB_SANDBOX and AWB_BWRAP as a run does', () => {
    expect(sandboxSettingsFromEnv({}, root)).toEqual({ enabled: true, bwrap: 'bwrap', hiddenPaths: [], passEnv: [] })
    expect(sandboxSettingsFromEnv({ AWB_SANDBOX: 'off', AWB_BWRAP: 'tools/bwrap' }, root)).toEqual({ enabled: false, bwrap: join(root, 'tools/bwrap'), hiddenPaths: [], passEnv: [] })
  })

  it('a command\'s backend is --backend, else AWB_SCORING_BACKEND, else auto', () => {
    expect(scoringBackend('gpu', { AWB_SCORING_BACKEND: 'cpu' })).toBe('gpu')
    expect(scoringBackend(undefined, { AWB_SCORING_BACKEND: 'cpu' })).toBe('cpu')
    expect(scoringBackend(undefined, { AWB_SCORING_BACKEND: '' })).toBe('auto')
    expect(() => scoringBackend(undefined, { AWB_SCORING_BACKEND: 'cuda' })).toThrow(/AWB_SCORING_BACKEND="cuda": expected one of auto, cpu, gpu/)
  })

  it('findChromium takes AWB_CHROMIUM, and only when it is an executable', () => {
    expect(findChromium({ AWB_CHROMIUM: process.execPath })).toBe(process.execPath)
    expect(findChromium({ AWB_CHROMIUM: join(root, 'no-such-chromium') })).toBeUndefined()
    expect(findChromium({ AWB_CHROMIUM: process.execPath }, 'hardware-gpu')).toBe(process.execPath)
  })

  // Where set-up installed both of Debian's builds (as on CI), pages must run on the lighter shell (2.5 CPU-s less per
  // block run) and the GPU page on the full browser its flags are written for.
  it.runIf(isExecutable('/usr/bin/chromium-headless-shell') && isExecutable('/usr/bin/chromium'))('findChromium picks the headless shell for pages and the full browser for the GPU page', () => {
    expect(findChromium({})).toBe('/usr/bin/chromium-headless-shell')
    expect(findChromium({}, 'hardware-gpu')).toBe('/usr/bin/chromium')
  })
})

describe('the documentation of the settings', () => {
  it('the options table of docs/runs.md names every variable a user sets (the table in code is the one list; the docs must not fall behind it)', async () => {
    const runs = await readFile(join(import.meta.dirname, '..', '..', '..', 'docs', 'runs.md'), 'utf8')
    const rows = runs.split('\n').filter(line => line.startsWith('| '))
    expect(USER_VARIABLE_NAMES.filter(name => !rows.some(row => new RegExp(`\\b${name}\\b`).test(row)))).toEqual([])
  })
})

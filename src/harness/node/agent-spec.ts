// Which agent a sample runs, from the run's agent setting: a spec the page acts on. Reads the replay script, checks
// the module file and has the realm's code bundled (once per run) for page agents; runs nothing.
import { access, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isAgentModulePath, moduleLoadFailure } from '../../agents/index.ts'
import { isApiAgentName, MODEL_PROVIDERS, parseApiAgentName } from '../../agents/api/index.ts'
import { DEFAULT_SANDBOX, probeSandbox, SANDBOXED_AGENTS, sandboxUnavailableMessage, type SandboxSettings } from '../../agents/sandbox/index.ts'
import type { PackageSample } from '../../package/index.ts'
import { isNotFoundError } from '../../shared/fs-errors.ts'
import type { AgentSpec } from '../sample-messages.ts'
import type { AgentRealmBundler, RealmEntry } from './agent-bundle.ts'
import type { GatedAgentKind } from './sample-gate.ts'

const API_PROVIDERS: readonly string[] = MODEL_PROVIDERS

/** The run settings an agent spec depends on (see BenchmarkSessionOptions). */
export interface AgentOptions {
  agent: string
  model: string | undefined
  demonstrations: string
  /** Bundles page agents' realm code (the plugin's, one per run); absent outside a Vitest run, where no page agent runs. */
  agentRealm?: AgentRealmBundler | undefined
  externalAgent?: readonly [string, ...string[]] | undefined
  /** How CLI and external agent processes are contained; default `DEFAULT_SANDBOX` (sandboxed, fail closed). */
  sandbox?: SandboxSettings | undefined
}

/** The agent `sample` runs under `options`, or `unavailable` with the reason and the setting that fixes it. */
export async function agentFor(options: AgentOptions, sample: PackageSample): Promise<AgentSpec> {
  switch (options.agent) {
    case 'idle':
      return inRealm(options, { kind: 'built-in' }, realm => ({ kind: 'idle', realm }))
    case 'external':
      if (options.externalAgent === undefined) return { kind: 'unavailable', reason: 'the external agent needs a program: set the plugin option agent: {command: [...]} or AWB_AGENT=\'{"command": [...]}\'' }
      return await sandboxRefusal(options) ?? { kind: 'cli', cli: 'external', model: options.model ?? 'external' }
    case 'replay': {
      const source = join(options.demonstrations, sample.block, `${sample.slug}.calls.jsonl`)
      let script: string
      try {
        script = await readFile(source, 'utf8')
      } catch (error) {
        if (!isNotFoundError(error)) return { kind: 'unavailable', reason: `the replay agent's demonstration ${source} cannot be read (${error instanceof Error ? error.message : String(error)}); check its permissions` }
        return { kind: 'unavailable', reason: `the replay agent has no demonstration for ${sample.block}/${sample.id}: ${source} is missing (set AWB_DEMONSTRATIONS to the folder of <block>/<slug>.calls.jsonl scripts)` }
      }
      return inRealm(options, { kind: 'built-in' }, realm => ({ kind: 'replay', script, source, realm }))
    }
    default:
      if (isAgentModulePath(options.agent)) {
        if (options.agentRealm === undefined) return { kind: 'unavailable', reason: `agent modules (${options.agent}) run only in a Vitest run` }
        try {
          await access(options.agent)
        } catch (error) {
          if (!isNotFoundError(error)) return { kind: 'unavailable', reason: `the agent module ${options.agent} cannot be read (${error instanceof Error ? error.message : String(error)}); check its permissions` }
          return { kind: 'unavailable', reason: `the agent module ${options.agent} does not exist (the agent option names a module file relative to the project root)` }
        }
        const source = options.agent
        return inRealm(options, { kind: 'module', path: source }, realm => ({ kind: 'module', source, realm }), reason => moduleLoadFailure(source, reason))
      }
      if (isApiAgentName(options.agent)) {
        const spec = parseApiAgentName(options.agent)
        return inRealm(options, { kind: 'api' }, realm => ({ kind: 'api', spec, realm }))
      }
      if (options.agent === 'codex' || options.agent === 'claude') {
        if (options.model === undefined) return { kind: 'unavailable', reason: `the ${options.agent} agent needs a model: set AWB_MODEL (or the plugin's model option)` }
        return await sandboxRefusal(options) ?? { kind: 'cli', cli: options.agent, model: options.model }
      }
      if (API_PROVIDERS.includes(options.agent) && options.model !== undefined) {
        const spec = parseApiAgentName(`${options.agent}:${options.model}`)
        return inRealm(options, { kind: 'api' }, realm => ({ kind: 'api', spec, realm }))
      }
      return { kind: 'unavailable', reason: `unknown agent "${options.agent}"; use replay, idle, codex or claude (with AWB_MODEL), openai:<model>, anthropic:<model> or a page agent module (./my-agent.ts)` }
  }
}

/**
 * A page agent's spec with the code of its realm, bundled once per run. A module that does not bundle is the agent's
 * failure (`unavailable`, so the sample's world is still exported and scored), named as a load failure always was.
 */
async function inRealm(options: AgentOptions, entry: RealmEntry, spec: (realm: string) => AgentSpec, failure: (reason: string) => string = reason => `the agent's realm could not be bundled: ${reason}`): Promise<AgentSpec> {
  if (options.agentRealm === undefined) return { kind: 'unavailable', reason: 'page agents run only in a Vitest run, which bundles the realm they run in' }
  try {
    return spec(await options.agentRealm.code(entry))
  } catch (error) {
    return { kind: 'unavailable', reason: failure(error instanceof Error ? error.message : String(error)) }
  }
}

/**
 * Agent processes run only in the sandbox unless it is switched off: where it cannot start (probed once per run), the
 * sample is refused with how to enable it, before its page opens anything.
 */
async function sandboxRefusal(options: AgentOptions): Promise<AgentSpec | undefined> {
  const sandbox = options.sandbox ?? DEFAULT_SANDBOX
  if (!sandbox.enabled) return undefined
  const probe = await probeSandbox(sandbox.bwrap)
  return probe.isOk ? undefined : { kind: 'unavailable', reason: sandboxUnavailableMessage(sandbox.bwrap, probe.reason) }
}

/** Where `agent` runs, which decides the Node-side services its page may use (model requests, the CLI relay). */
export function agentKindOf(agent: string): GatedAgentKind {
  if ((SANDBOXED_AGENTS as readonly string[]).includes(agent)) return 'cli'
  if (isApiAgentName(agent) || API_PROVIDERS.includes(agent)) return 'api'
  return 'page'
}

// Which agent a sample runs, from the run's agent setting: a spec the page acts on. Reads the replay script or
// checks the module file; runs nothing.
import { access, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isAgentModulePath } from '../../agents/index.ts'
import { isApiAgentName, MODEL_PROVIDERS, parseApiAgentName } from '../../agents/api/index.ts'
import type { PackageSample } from '../../package/index.ts'
import type { AgentSpec } from '../protocol.ts'
import type { GatedAgentKind } from './sample-gate.ts'

const API_PROVIDERS: readonly string[] = MODEL_PROVIDERS

/** The run settings an agent spec depends on (see BenchmarkSessionOptions). */
export interface AgentOptions {
  agent: string
  model: string | undefined
  demonstrations: string
  moduleUrl?: ((path: string) => string) | undefined
  externalAgent?: readonly [string, ...string[]] | undefined
}

/** The agent `sample` runs under `options`, or `unavailable` with the reason and the setting that fixes it. */
export async function agentFor(options: AgentOptions, sample: PackageSample): Promise<AgentSpec> {
  switch (options.agent) {
    case 'idle':
      return { kind: 'idle' }
    case 'external':
      if (options.externalAgent === undefined) return { kind: 'unavailable', reason: 'the external agent needs a program: set the plugin option agent: {command: [...]} or AWB_AGENT=\'{"command": [...]}\'' }
      return { kind: 'cli', cli: 'external', model: options.model ?? 'external' }
    case 'replay': {
      const source = join(options.demonstrations, sample.block, `${sample.slug}.calls.jsonl`)
      try {
        return { kind: 'replay', script: await readFile(source, 'utf8'), source }
      } catch {
        return { kind: 'unavailable', reason: `the replay agent has no demonstration for ${sample.block}/${sample.id}: ${source} is missing (set AWB_DEMONSTRATIONS to the folder of <block>/<slug>.calls.jsonl scripts)` }
      }
    }
    default:
      if (isAgentModulePath(options.agent)) {
        if (options.moduleUrl === undefined) return { kind: 'unavailable', reason: `agent modules (${options.agent}) run only in a Vitest run` }
        try {
          await access(options.agent)
        } catch {
          return { kind: 'unavailable', reason: `the agent module ${options.agent} does not exist (the agent option names a module file relative to the project root)` }
        }
        return { kind: 'module', url: options.moduleUrl(options.agent), source: options.agent }
      }
      if (isApiAgentName(options.agent)) return { kind: 'api', spec: parseApiAgentName(options.agent) }
      if (options.agent === 'codex' || options.agent === 'claude') {
        if (options.model === undefined) return { kind: 'unavailable', reason: `the ${options.agent} agent needs a model: set AWB_MODEL (or the plugin's model option)` }
        return { kind: 'cli', cli: options.agent, model: options.model }
      }
      if (API_PROVIDERS.includes(options.agent) && options.model !== undefined) return { kind: 'api', spec: parseApiAgentName(`${options.agent}:${options.model}`) }
      return { kind: 'unavailable', reason: `unknown agent "${options.agent}"; use replay, idle, codex or claude (with AWB_MODEL), openai:<model>, anthropic:<model> or a page agent module (./my-agent.ts)` }
  }
}

/** Where `agent` runs, which decides the Node-side services its page may use (model requests, the CLI relay). */
export function agentKindOf(agent: string): GatedAgentKind {
  if (agent === 'codex' || agent === 'claude' || agent === 'external') return 'cli'
  if (isApiAgentName(agent) || API_PROVIDERS.includes(agent)) return 'api'
  return 'page'
}

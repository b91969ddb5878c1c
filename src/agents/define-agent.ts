// Bring-your-own page agents: `defineAgent` for authors, and finding the agent a module exports. Page and realm code.
import type { AgentResult, AgentRunContext, PageAgent } from './agent.ts'

/** What an agent module's author writes: a name and a `run` over the prompt, the pages and the tools. */
export interface AgentDefinition {
  name: string
  run(context: AgentRunContext): Promise<AgentResult>
}

/** Marks a defined agent, so a module that exports something else is refused with a clear error. */
const DEFINED = Symbol.for('assembly-world-bench.agent')

/**
 * Defines a page agent: the default export of a module named by the `agent` option (`agent: './my-agent.ts'`,
 * `AWB_AGENT=./my-agent.ts`). It runs like the built-in agents, in its own sandboxed frame beside the sample's page:
 * it gets the composed prompt, the reference pages, the registered tools and an abort signal that fires at the time
 * limit, and reports its final answer (and, if it has them, usage and cost as its provider reported them).
 */
export function defineAgent(definition: AgentDefinition): PageAgent {
  if (typeof definition?.name !== 'string' || definition.name === '') throw new TypeError('defineAgent: `name` must be a non-empty string')
  if (typeof definition.run !== 'function') throw new TypeError(`defineAgent(${definition.name}): \`run\` must be a function (context) => Promise<{finalAnswer, usage, costUsd, model}>`)
  const run = definition.run.bind(definition)
  return Object.freeze({ name: definition.name, run, [DEFINED]: true })
}

/** Whether an `agent` option names a module file (`./my-agent.ts`, `/abs/agent.js`) rather than a built-in agent. */
export function isAgentModulePath(agent: string): boolean {
  return /^(\.{1,2}[\\/]|\/)/.test(agent) || /\.(m?[jt]s|[cm]js)$/.test(agent)
}

/**
 * The agent a module exports: its default export, which must come from `defineAgent`. `module` is the module's
 * namespace as the agent's realm evaluated it (the module was bundled on the Node side, see agent-bundle.ts).
 */
export function agentOfModule(module: unknown, source: string): PageAgent {
  const agent = (module as { default?: unknown } | null)?.default
  if (agent === null || typeof agent !== 'object' || (agent as Record<symbol, unknown>)[DEFINED] !== true) {
    throw new Error(`the agent module ${source} must have a default export made with defineAgent({ name, run }) (import { defineAgent } from 'assembly-world-bench/agent')`)
  }
  return agent as PageAgent
}

/** Why an agent module could not be loaded (bundled on the Node side, or evaluated in its realm), as users read it. */
export function moduleLoadFailure(source: string, reason: string): string {
  return `the agent module ${source} could not be loaded: ${reason}`
}

/** Normalises what an agent's `run` resolved to, so a sloppy module cannot break the record. */
export function agentResultOf(value: unknown): AgentResult {
  const result = (value ?? {}) as Partial<Record<keyof AgentResult, unknown>>
  return {
    finalAnswer: typeof result.finalAnswer === 'string' ? result.finalAnswer : null,
    usage: result.usage !== null && typeof result.usage === 'object' ? result.usage as Record<string, unknown> : null,
    costUsd: typeof result.costUsd === 'number' && Number.isFinite(result.costUsd) ? result.costUsd : null,
    model: typeof result.model === 'string' ? result.model : null,
  }
}

// Public entry of agents: the page-agent contract, built-in agents, prompt composition, outcome parsing.
export type { AgentResult, AgentRunContext, AgentToolInfo, ConversationEntry, PageAgent, ReferencePage, ToolSurface } from './agent.ts'
export { AGENT_OUTCOME_STATUSES, parseAgentOutcome, type AgentOutcome } from './agent-outcome.ts'
export { composePrompt, PROTOCOL } from './prompt.ts'
export { createIdleAgent, createReplayAgent, replayCallId, type ReplayAgentOptions } from './replay-agent.ts'
export { parseCallsScript, ScriptCallSchema, type ScriptCall } from './calls-script.ts'
export { agentOfModule, agentResultOf, defineAgent, isAgentModulePath, moduleLoadFailure, type AgentDefinition } from './define-agent.ts'

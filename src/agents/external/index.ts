// Public entry of the external agents (Node side): a bring-your-own program in any language, reaching the sample's
// tools over MCP (Streamable HTTP), run like the CLI agents.
export { EXTERNAL_AGENT_VARIABLES, runExternalAgent, type ExternalAgentRun, type RunExternalAgentOptions } from './run-external-agent.ts'
export { runExternalAgentOnRelay, type ExternalAgentSampleRun, type RunExternalAgentOnRelayOptions } from './run-on-relay.ts'

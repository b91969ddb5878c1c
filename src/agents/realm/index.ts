// Page-side entry of agent realms: the sandboxed frame a page agent runs in, and the harness's end of its run. The
// realm side (inside/) is not exported: it is bundled by the Node side (src/harness/node/agent-bundle.ts) and only
// ever evaluated inside the frame.
export { AGENT_REALM_ERROR_CODES, AgentFailure, AgentRealmError, type AgentRealmErrorCode } from './errors.ts'
export { REALM_CONNECT, type RealmAgentSpec, type RealmInit } from './messages.ts'
export { openAgentRealm, prepareAgentRealm, REALM_START_LIMIT_MS, type AgentRealm, type OpenRealmOptions, type RealmEvent } from './realm-frame.ts'
export { runAgentInRealm, type RealmServices } from './realm-host.ts'
export { realmDocument } from './realm-document.ts'

/** The realm entries the Node side bundles, by path from the package root (the module entry is generated around a user's module). */
export const REALM_ENTRIES = {
  builtIn: 'src/agents/realm/inside/entries/built-in.ts',
  api: 'src/agents/realm/inside/entries/api.ts',
  module: 'src/agents/realm/inside/entries/module.ts',
  consoleCapture: 'src/agents/realm/inside/console-capture.ts',
} as const

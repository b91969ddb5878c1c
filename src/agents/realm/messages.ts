// The messages between the harness (the tester page) and an agent's realm (its sandboxed frame), over the one
// MessagePort the realm holds. Types only: both sides import them; the harness also validates what it receives
// (message-schemas.ts), because everything that comes out of a realm is agent-controlled.
import type { AgentResult, AgentToolInfo, ConversationEntry, ReferencePage } from '../agent.ts'
import type { ApiAgentSpec, ApiAgentSpent, ModelRequest } from '../api/index.ts'
import type { ScriptCall } from '../calls-script.ts'

/** The `type` of the window message that hands a new realm its port and its code (harness → realm, once). */
export const REALM_CONNECT = 'awb-agent-realm-connect'

/** The agent a realm builds, parsed and checked by the harness first (a replay script arrives as calls). */
export type RealmAgentSpec =
  | { kind: 'replay'; calls: ScriptCall[] }
  | { kind: 'idle' }
  /** The user's module, bundled into the realm's code; `source` names it in errors. */
  | { kind: 'module'; source: string }
  | { kind: 'api'; spec: ApiAgentSpec }

/** Everything an agent gets besides the tools' answers: its prompt, its reference pages, the tool list. */
export interface RealmInit {
  prompt: string
  pages: ReferencePage[]
  tools: AgentToolInfo[]
  agent: RealmAgentSpec
}

/** What the agent asks of the harness; each is answered by a `reply` with the same id. */
export type RealmRequest =
  | { kind: 'tool'; name: string; input: unknown }
  | { kind: 'record'; entry: ConversationEntry }
  | { kind: 'model'; request: ModelRequest }

export const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const
export type ConsoleLevel = (typeof CONSOLE_LEVELS)[number]

/** An agent's failure as it crosses the port: enough to describe it as the harness always has (`name: message`). */
export interface RealmFailure {
  /** The thrown value's `name` when it was an Error, else null (a thrown string, say). */
  name: string | null
  message: string
  /** An AwbError's code, when the thrown value had one. */
  code: string | null
  /** What an API agent had spent when it failed (ApiAgentError.spent). */
  spent: ApiAgentSpent | null
}

/** Realm → harness. */
export type RealmMessage =
  /** The realm's code ran (the user's module included) and it waits for `init`. */
  | { type: 'ready' }
  /** The realm's code could not be evaluated (sent by the bootstrap): the reason, as the error's message. */
  | { type: 'load-failed'; message: string }
  | { type: 'request'; id: number; request: RealmRequest }
  | { type: 'console'; level: ConsoleLevel; args: unknown[] }
  | { type: 'done'; result: AgentResult }
  | { type: 'failed'; failure: RealmFailure }

/** Harness → realm. */
export type HarnessMessage =
  | { type: 'init'; init: RealmInit }
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: string }
  /** The time limit passed or the run is stopping; the frame is removed right after. */
  | { type: 'abort'; reason: string }

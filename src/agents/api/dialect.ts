// The contract between the provider-neutral agent loop and one wire dialect (Chat Completions, Messages); no loop here.
import type { AgentToolInfo, ConversationEntry, ReferencePage } from '../agent.ts'

/** A tool call the model asked for. `argumentsError` is set when the arguments could not be parsed. */
export interface ModelToolCall {
  id: string
  name: string
  /** Parsed arguments, or the raw text when `argumentsError` is set. */
  arguments: unknown
  argumentsError?: string | undefined
}

/** One model response read into the loop's terms. */
export interface ModelTurn {
  /** The response's text (text parts joined by a newline); null when it has none. */
  text: string | null
  toolCalls: ModelToolCall[]
  /** Token counts of this response under our common names (`input_tokens`, `output_tokens`, cache fields). */
  usage: Record<string, number>
  /** Cost in USD when the provider reports it on this response; null otherwise (never estimated). */
  costUsd: number | null
  /** The model that answered, as the provider names it. */
  model: string | null
}

/** A tool call and the page tool's JSON-string answer. */
export interface ToolAnswer {
  call: ModelToolCall
  output: string
}

/** The conversation of one run in a dialect: it owns the message history it sends. */
export interface DialectConversation {
  /** The JSON body of the next request (whole history, tools, output limit). */
  requestBody(): { model: string } & Record<string, unknown>
  /** Validates a response, appends the assistant message to the history; throws `API_AGENT_MALFORMED_RESPONSE`. */
  readResponse(json: unknown): ModelTurn
  /** Appends the answers of the last turn's calls; returns extra message records (e.g. an image message). */
  appendToolAnswers(answers: readonly ToolAnswer[]): ConversationEntry[]
}

export interface DialectStart {
  model: string
  maxOutputTokens: number
  prompt: string
  pages: readonly ReferencePage[]
  tools: readonly AgentToolInfo[]
}

export type DialectFactory = (start: DialectStart) => DialectConversation

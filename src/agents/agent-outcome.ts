// Extracts the agent's declared outcome from its final answer (runner.md §4 step 7); no I/O.

export const AGENT_OUTCOME_STATUSES = ['completed', 'partial', 'unable'] as const

/** The declared outcome: `status` is one of the three; the other fields are kept as written. */
export type AgentOutcome = { status: (typeof AGENT_OUTCOME_STATUSES)[number] } & Record<string, unknown>

/** The first JSON object in `text` whose `status` is completed, partial or unable; null when there is none. */
export function parseAgentOutcome(text: string | null): AgentOutcome | null {
  if (text === null) return null
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const candidate = balancedObjectAt(text, start)
    if (candidate === undefined) continue
    try {
      const value: unknown = JSON.parse(candidate)
      if (isOutcome(value)) return value
    } catch {
      // Not JSON (e.g. prose in braces): keep scanning.
    }
  }
  return null
}

function isOutcome(value: unknown): value is AgentOutcome {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const status = (value as { status?: unknown }).status
  return typeof status === 'string' && (AGENT_OUTCOME_STATUSES as readonly string[]).includes(status)
}

/** The substring from `start` to its matching `}`, honouring strings and escapes; undefined when unbalanced. */
function balancedObjectAt(text: string, start: number): string | undefined {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      if (char === '\\') i++
      else if (char === '"') inString = false
    } else if (char === '"') inString = true
    else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return text.slice(start, i + 1)
  }
  return undefined
}

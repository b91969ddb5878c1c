// Realm side: the agent's console goes to the harness, which prints it in the tester page, where Vitest collects it
// for the terminal (a sandboxed frame's own console reaches only DevTools). Installed when this module is evaluated,
// first of the realm's modules, so that a user module's top-level logging is kept too; buffered until the port exists.
import { CONSOLE_LEVELS, type RealmMessage } from '../messages.ts'

/** Longest text kept of one console argument: a console is not a channel for bulk data. */
const MAX_TEXT = 64 * 1024
/** Console calls kept before the port is connected. */
const MAX_BUFFERED = 1000

type ConsoleMessage = Extract<RealmMessage, { type: 'console' }>

let send: ((message: ConsoleMessage) => void) | undefined
const buffered: ConsoleMessage[] = []

for (const level of CONSOLE_LEVELS) {
  console[level] = (...args: unknown[]) => {
    const message: ConsoleMessage = { type: 'console', level, args: args.map(cloneable) }
    if (send !== undefined) send(message)
    else if (buffered.length < MAX_BUFFERED) buffered.push(message)
  }
}

/** Sends what was logged so far, and all later logging, through `post`. */
export function connectConsole(post: (message: ConsoleMessage) => void): void {
  send = post
  for (const message of buffered.splice(0)) post(message)
}

/** The value itself when it survives structured cloning (Vitest then formats it), else its text. */
function cloneable(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}… (${value.length - MAX_TEXT} more characters)` : value
  try {
    return structuredClone(value)
  } catch {
    try {
      return cloneable(String(value))
    } catch {
      return '[a value that cannot be printed]'
    }
  }
}

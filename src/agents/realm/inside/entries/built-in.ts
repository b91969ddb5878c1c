// Realm entry of the replay and idle agents: bundled by the Node side into the code their samples' realms evaluate.
// Its one export is what the realm's bootstrap calls with the harness's port.
import '../console-capture.ts'
import { createIdleAgent, createReplayAgent } from '../../../replay-agent.ts'
import { startRealm } from '../realm-main.ts'

export function start(port: MessagePort): void {
  startRealm(port, (spec) => {
    // The harness records each call around it (realm-host.ts, `recordToolCalls`), with the replay's own ids.
    if (spec.kind === 'replay') return createReplayAgent(spec.calls, { recordCalls: false })
    if (spec.kind === 'idle') return createIdleAgent()
    throw new Error(`this realm runs the replay and idle agents, not the ${spec.kind} agent`)
  })
}

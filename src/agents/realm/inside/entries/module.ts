// Realm side of a user's agent module: the generated entry (src/harness/node/agent-bundle.ts) imports the module and
// hands its namespace here. Its default export must come from defineAgent, checked as the run starts so that the
// failure is the agent's, with the message users have always read.
import { agentOfModule } from '../../../define-agent.ts'
import { startRealm } from '../realm-main.ts'

export function startModuleRealm(port: MessagePort, module: unknown): void {
  startRealm(port, (spec) => {
    if (spec.kind !== 'module') throw new Error(`this realm runs an agent module, not the ${spec.kind} agent`)
    return agentOfModule(module, spec.source)
  })
}

// Realm entry of the API agents (`openai:<model>`, `anthropic:<model>`): their loop runs in the realm, and each
// model request goes over the port to the harness, which sends it to Node (where the keys are).
import '../console-capture.ts'
import { createApiAgent } from '../../../api/index.ts'
import { startRealm } from '../realm-main.ts'

export function start(port: MessagePort): void {
  startRealm(port, (spec, models) => {
    if (spec.kind !== 'api') throw new Error(`this realm runs an API agent, not the ${spec.kind} agent`)
    return createApiAgent({ ...spec.spec, transport: models })
  })
}

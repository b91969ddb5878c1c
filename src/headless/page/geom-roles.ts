// Decides how each geom of a reference page is drawn (hidden, part, highlighted) from its body; no drawing.
import type { MjModel } from '@mujoco/mujoco'
import type { Mujoco } from '../../world/index.ts'

/** How one geom is drawn on a reference page. */
export type GeomRole = 'hidden' | 'part' | 'highlighted'

/** A part's body and how the page shows it. */
export interface PartVisibility {
  bodyId: string
  visible: boolean
  highlighted: boolean
}

/**
 * One role per geom (index = geom id) from its body (`geom_bodyid`): an invisible or unlisted body hides
 * its geoms; a visible one draws them highlighted or plain. Geoms of the world body (none in benchmark
 * scenes) stay hidden, so only what the page lists appears. Unknown body names are ignored here
 * (`assembledIntegration` rejects them).
 */
export function geomRoles(mujoco: Mujoco, model: MjModel, parts: readonly PartVisibility[]): GeomRole[] {
  const byBody = new Map<number, GeomRole>()
  for (const part of parts) {
    const body = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY.value, part.bodyId)
    if (body < 1) continue
    byBody.set(body, !part.visible ? 'hidden' : part.highlighted ? 'highlighted' : 'part')
  }
  const bodyOf = model.geom_bodyid as Int32Array
  const roles: GeomRole[] = []
  for (let geom = 0; geom < model.ngeom; geom++) roles.push(byBody.get(bodyOf[geom] ?? 0) ?? 'hidden')
  return roles
}

// geomRoles: every geom takes its body's role; invisible, unlisted and unknown bodies draw nothing.
import { describe, expect, it } from 'vitest'
import { geomRoles } from '../../../../src/headless/page/geom-roles.ts'
import { compileWorld, loadMujoco } from '../../../../src/world/index.ts'

const mujoco = await loadMujoco()

// Part 2 has two geoms, so roles must follow geom_bodyid rather than the geom index.
const XML = [
  '<mujoco><worldbody>',
  '<body name="part-0001"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>',
  '<body name="part-0002"><freejoint/><geom type="box" size="0.1 0.1 0.1"/><geom type="sphere" size="0.1" pos="0.3 0 0"/></body>',
  '<body name="part-0003"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>',
  '<body name="part-0004"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>',
  '</worldbody></mujoco>',
].join('')

describe('geomRoles', () => {
  it('maps visible, highlighted, invisible and unlisted bodies to their geoms', () => {
    const model = compileWorld(mujoco, new Map([['world/model.xml', new TextEncoder().encode(XML)]]))
    try {
      const roles = geomRoles(mujoco, model, [
        { bodyId: 'part-0001', visible: true, highlighted: false },
        { bodyId: 'part-0002', visible: true, highlighted: true },
        { bodyId: 'part-0003', visible: false, highlighted: true },
        { bodyId: 'no-such-body', visible: true, highlighted: true },
      ])
      expect(roles).toEqual(['part', 'highlighted', 'highlighted', 'hidden', 'hidden'])
    } finally {
      model.delete()
    }
  })
})

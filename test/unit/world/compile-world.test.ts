// compileWorld in one realm, world after world: every benchmark episode names its meshes `meshes/part-NNNN.obj`, and
// MuJoCo keeps compiled meshes in a process-wide cache keyed by path. Each world must get its own meshes.
import { describe, expect, it } from 'vitest'
import { compileWorld, loadMujoco } from '../../../src/world/index.ts'

const XML = '<mujoco><asset><mesh name="a" file="meshes/part-0001.obj"/></asset><worldbody><body name="part-0001"><freejoint/><geom type="mesh" mesh="a"/></body></worldbody></mujoco>'
const encoder = new TextEncoder()

/** A tetrahedron with legs of `size` (one digit, one decimal: every size gives a file of the same byte length). */
function world(size: string): Map<string, Uint8Array> {
  const obj = `v 0 0 0\nv ${size} 0 0\nv 0 ${size} 0\nv 0 0 ${size}\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n`
  return new Map([['world/model.xml', encoder.encode(XML)], ['world/meshes/part-0001.obj', encoder.encode(obj)]])
}

/**
 * Σ|v|² over the compiled mesh's vertices. MuJoCo moves a mesh to its centroid and inertia axes, and the axes of this
 * symmetric shape are not unique, so the vertices may turn; their spread does not, and it grows with the size squared.
 */
async function spreadOf(files: Map<string, Uint8Array>): Promise<number> {
  const model = compileWorld(await loadMujoco(), files)
  try {
    return Array.from(model.mesh_vert as ArrayLike<number>).reduce((sum, value) => sum + value * value, 0)
  } finally {
    model.delete()
  }
}

describe('compileWorld', () => {
  it('compiles each world\'s own meshes when the one before had a mesh of the same path and byte size', async () => {
    // MjVFS buffers, the route before, are revalidated by a hash that ORs their bytes in: the second and third worlds
    // here compiled with the first one's mesh.
    const one = await spreadOf(world('1.0'))
    expect(await spreadOf(world('2.0')) / one).toBeCloseTo(4, 5)
    expect(await spreadOf(world('3.5')) / one).toBeCloseTo(12.25, 5)
    expect(await spreadOf(world('2.0')) / one).toBeCloseTo(4, 5)
    expect(await spreadOf(world('1.0')) / one).toBeCloseTo(1, 5)
  })

  it('leaves nothing of a world in the module\'s file system, also when the compile fails', async () => {
    const mujoco = await loadMujoco()
    const before = mujoco.FS.readdir('/') as string[]
    await spreadOf(world('1.0'))
    const broken = world('1.0')
    broken.set('world/model.xml', encoder.encode('<mujoco><worldbody><geom type="mesh" mesh="missing"/></worldbody></mujoco>'))
    expect(() => compileWorld(mujoco, broken, { source: 'broken.episode.zip' })).toThrow(/MuJoCo could not compile world\/model\.xml/)
    expect(mujoco.FS.readdir('/')).toEqual(before)
  })

  it('refuses archive members outside world/ or with unsafe segments, before MuJoCo reads anything', async () => {
    const mujoco = await loadMujoco()
    for (const member of ['world/../etc/passwd', 'world//model.obj', 'world/./a.obj', 'world/a\\b.obj']) {
      const files = world('1.0')
      files.set(member, encoder.encode('v 0 0 0\n'))
      expect(() => compileWorld(mujoco, files), member).toThrow(/is not a plain relative path inside world\//)
    }
  })
})

// Compiles an episode's world/ files into a MuJoCo model in an isolated virtual file system; no state here.
import type { MjModel } from '@mujoco/mujoco'
import { assertSafeAssetPaths } from './asset-paths.ts'
import { WorldError } from './errors.ts'
import type { Mujoco } from './mujoco-runtime.ts'

const WORLD_PREFIX = 'world/'
const XML_MODEL_PATH = 'model.xml'
/** Geom types a runtime must accept: plane, sphere, capsule, ellipsoid, cylinder, box, mesh (§2.12 rule 5). */
const SUPPORTED_GEOM_TYPES: ReadonlySet<number> = new Set([0, 2, 3, 4, 5, 6, 7])
const MAX_TIMESTEP_S = 0.1

export interface ModelDeclaration {
  format: 'mjb'
  path: string
}

export interface CompileWorldOptions {
  /** `manifest.model` of the episode; absent for XML worlds (`world/model.xml`). */
  model?: ModelDeclaration | undefined
  /** Label of the archive in error messages, e.g. its file name. */
  source?: string
}

/**
 * Compiles `world` (members keyed by their archive path `world/...`, bytes untouched) into a model.
 * The caller owns the returned model and must `delete()` it.
 * Throws `WorldError` for unsafe asset paths, a missing model file, a compile failure or unsupported features.
 */
export function compileWorld(mujoco: Mujoco, world: ReadonlyMap<string, Uint8Array>, options: CompileWorldOptions = {}): MjModel {
  const source = options.source ?? 'episode'
  const modelPath = options.model === undefined ? XML_MODEL_PATH : options.model.path
  if (!world.has(WORLD_PREFIX + modelPath)) {
    throw new WorldError('WORLD_MODEL_MISSING', `the archive has no ${WORLD_PREFIX}${modelPath}; an episode needs its model file`, { file: source })
  }
  const decoder = new TextDecoder()
  const vfs = new mujoco.MjVFS()
  try {
    for (const [member, bytes] of world) {
      const path = member.slice(WORLD_PREFIX.length)
      if (options.model === undefined && path.endsWith('.xml')) assertSafeAssetPaths(decoder.decode(bytes), `${source} → ${member}`)
      vfs.addBuffer(path, bytes)
    }
    const model = loadModel(mujoco, vfs, modelPath, options.model !== undefined, source)
    try {
      assertSupportedModel(model, source)
    } catch (error) {
      model.delete()
      throw error
    }
    return model
  } finally {
    vfs.delete()
  }
}

function loadModel(mujoco: Mujoco, vfs: InstanceType<Mujoco['MjVFS']>, path: string, isBinary: boolean, source: string): MjModel {
  try {
    return isBinary ? mujoco.MjModel.mj_loadModel(path, vfs) : mujoco.MjModel.mj_loadXML(path, vfs)
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause)
    throw new WorldError('WORLD_COMPILE', `MuJoCo could not compile world/${path}: ${detail}`, { file: source, cause })
  }
}

function assertSupportedModel(model: MjModel, source: string): void {
  const unsupported: string[] = []
  if (model.nplugin > 0) unsupported.push('plugins')
  if (model.nflex > 0) unsupported.push('flexes')
  if (model.nskin > 0) unsupported.push('skins')
  if (model.ntex > 0) unsupported.push('textures')
  const geomTypes = model.geom_type as ArrayLike<number>
  for (let i = 0; i < model.ngeom; i++) {
    const type = geomTypes[i] ?? -1
    if (!SUPPORTED_GEOM_TYPES.has(type)) {
      unsupported.push(`geom ${i} of type ${type} (Unsupported geometry)`)
      break
    }
  }
  const timestep = model.opt.timestep
  if (!(timestep > 0 && timestep <= MAX_TIMESTEP_S)) unsupported.push(`timestep ${timestep} outside (0, ${MAX_TIMESTEP_S}]`)
  if (unsupported.length > 0) {
    throw new WorldError('WORLD_UNSUPPORTED', `the model uses features the runtime does not support: ${unsupported.join(', ')}`, { file: source })
  }
}

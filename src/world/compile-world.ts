// Compiles an episode's world/ files into a MuJoCo model from a private folder of the module's in-memory file system;
// no state here but the folder counter.
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
  // The files go to the module's in-memory file system (Emscripten's MEMFS: nothing reaches the disk), where MuJoCo
  // reads them past an empty MjVFS. MjVFS.addBuffer would copy each buffer one byte per call between JavaScript and
  // WebAssembly (embind's vecFromJSArray), about half a second per megabyte: most of a full-size world's compile time.
  // MuJoCo keeps compiled meshes in a process-wide cache keyed by file path and, for files, revalidated by their
  // modification time in whole seconds: every compile stamps its files one second later than the compile before, so a
  // mesh of another world at the same path is never taken for this one (and the cache does not grow with every world).
  // MjVFS buffers are revalidated by a weak hash instead (bytes OR-ed in): two meshes of one size could share it.
  const fs = mujoco.FS
  const stamp = ++worldClockSeconds * 1000
  const vfs = new mujoco.MjVFS()
  try {
    removeFolder(fs, WORLD_FOLDER)
    fs.mkdir(WORLD_FOLDER)
    for (const [member, bytes] of world) {
      const path = member.slice(WORLD_PREFIX.length)
      if (!member.startsWith(WORLD_PREFIX) || !isPlainRelativePath(path)) {
        throw new WorldError('WORLD_ASSET_PATH', `archive member ${member} is not a plain relative path inside world/`, { file: source })
      }
      if (options.model === undefined && path.endsWith('.xml')) assertSafeAssetPaths(decoder.decode(bytes), `${source} → ${member}`)
      const slash = path.lastIndexOf('/')
      if (slash > 0) fs.mkdirTree(`${WORLD_FOLDER}/${path.slice(0, slash)}`, 0o777)
      fs.writeFile(`${WORLD_FOLDER}/${path}`, bytes)
      fs.utime(`${WORLD_FOLDER}/${path}`, stamp, stamp)
    }
    const model = loadModel(mujoco, vfs, WORLD_FOLDER, modelPath, options.model !== undefined, source)
    try {
      assertSupportedModel(model, source)
    } catch (error) {
      model.delete()
      throw error
    }
    return model
  } finally {
    vfs.delete()
    removeFolder(fs, WORLD_FOLDER)
  }
}

/** Where a compile's files lie in the module's file system (one compile at a time per realm: compiles are synchronous). */
const WORLD_FOLDER = '/awb-world'
/** The modification time, in seconds, of the last compile's files in this realm; each compile's is one more. */
let worldClockSeconds = 0

/** A path with only non-empty segments other than `.` and `..`, not absolute, no backslash. */
function isPlainRelativePath(path: string): boolean {
  return path !== '' && !path.includes('\\') && path.split('/').every(segment => segment !== '' && segment !== '.' && segment !== '..')
}

/** Removes a folder and everything in it from the module's in-memory file system. */
function removeFolder(fs: Mujoco['FS'], dir: string): void {
  if (!fs.analyzePath(dir, false).exists) return
  for (const name of fs.readdir(dir) as string[]) {
    if (name === '.' || name === '..') continue
    const path = `${dir}/${name}`
    if (fs.isDir(fs.stat(path, false).mode)) removeFolder(fs, path)
    else fs.unlink(path)
  }
  fs.rmdir(dir)
}

function loadModel(mujoco: Mujoco, vfs: InstanceType<Mujoco['MjVFS']>, dir: string, path: string, isBinary: boolean, source: string): MjModel {
  try {
    return isBinary ? mujoco.MjModel.mj_loadModel(`${dir}/${path}`, vfs) : mujoco.MjModel.mj_loadXML(`${dir}/${path}`, vfs)
  } catch (cause) {
    // MuJoCo names files by their path in the compile folder: name them by their archive path instead.
    const detail = (cause instanceof Error ? cause.message : String(cause)).split(`${dir}/`).join(WORLD_PREFIX)
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

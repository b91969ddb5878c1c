// Loads the official MuJoCo 3.12.0 WebAssembly module once per realm (Node or page); no model handling here.
import loadMujocoModule, { type MainModule } from '@mujoco/mujoco'
import { WorldError } from './errors.ts'

/** The MuJoCo version every episode, model and score in this project is bound to (environment.md §1). */
export const MUJOCO_VERSION = '3.12.0'

export type Mujoco = MainModule

export interface LoadMujocoOptions {
  /**
   * Maps the module's file names to URLs. Needed in the browser, where Vite serves `mujoco.wasm` under
   * its own URL (`import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url'`); Node finds the file itself.
   */
  locateFile?: (path: string) => string
}

let loading: Promise<Mujoco> | undefined

/** Resolves to the shared MuJoCo module, checking it is exactly version 3.12.0 (scoring.md §3.2 rule 6). */
export function loadMujoco(options: LoadMujocoOptions = {}): Promise<Mujoco> {
  loading ??= loadMujocoModule(options.locateFile === undefined ? undefined : { locateFile: options.locateFile })
    .then((mujoco) => {
      const version = mujoco.mj_versionString()
      if (version !== MUJOCO_VERSION) {
        throw new WorldError('WORLD_ENGINE_VERSION', `MuJoCo ${version} was loaded but episodes require exactly ${MUJOCO_VERSION}; install @mujoco/mujoco@${MUJOCO_VERSION}`)
      }
      return mujoco
    })
    .catch((error: unknown) => {
      loading = undefined
      throw error
    })
  return loading
}

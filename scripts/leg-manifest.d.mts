// Types of leg-manifest.mjs (a plain script, run by Node without a build step).
export declare function legManifest<T extends { devDependencies: Record<string, string> }>(root: T, overrides: Record<string, string>): T

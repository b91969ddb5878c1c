// The package.json of a test leg (test/legs/<name>/package.json): the root one with some devDependencies at other
// versions, so that a leg differs from the default one in exactly those. Used by scripts/test-legs.mjs and its test.

/**
 * `root` (a parsed package.json) with `devDependencies` replaced where `overrides` names them. Every override must name
 * a devDependency the root has: a leg tests the same project, not another one.
 */
export function legManifest(root, overrides) {
  for (const name of Object.keys(overrides)) {
    if (!(name in root.devDependencies)) throw new Error(`a leg overrides ${name}, which is not a devDependency of package.json`)
  }
  return { ...root, devDependencies: Object.fromEntries(Object.entries(root.devDependencies).map(([name, version]) => [name, overrides[name] ?? version])) }
}

/**
 * The browser dependencies Vite pre-bundles for every page this package serves (a block project's tester page, a
 * headless page of src/headless, the suite's browser project), named up front rather than left to Vite's scan of the
 * page's imports. CommonJS ones (ajv) cannot load unbundled; an ES one first met mid-run makes Vite bundle again and
 * reload the page; and a set that depends on what one page imports makes two servers sharing a cache folder write
 * different bundles into it, each replacing the other's files under the pages loading them. Listing every one
 * (`@mujoco/mujoco` too) makes each server's first bundle its final one, the same from any page.
 */
export const PREBUNDLED_DEPENDENCIES: readonly string[] = ['fflate', 'ajv', 'zod', 'three', '@mcp-b/webmcp-polyfill', '@mujoco/mujoco']

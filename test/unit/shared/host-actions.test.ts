// The host-action routes (src/shared/host-actions.ts): every form of a URL that reaches Vite's /__open-in-editor is
// refused, and the URLs pages need are not.
import { describe, expect, it } from 'vitest'
import { isHostActionUrl } from '../../../src/shared/host-actions.ts'

describe('host-action routes', () => {
  it.each([
    '/__open-in-editor?file=package.json',
    '/__open-in-editor',
    '/__open-in-editor/?file=x',
    '/__open-in-editor.x?file=x',
    '/__OPEN-IN-EDITOR?file=x',
    '//__open-in-editor?file=x',
    '/base/__open-in-editor?file=x',
    '/%5F%5Fopen-in-editor?file=x',
    '/%255F%255Fopen-in-editor?file=x',
    '/__open%2Din%2Deditor?file=x',
    '/%zz/__open-in-editor?file=x',
  ])('refuses %s', (url) => {
    expect(isHostActionUrl(url)).toBe(true)
  })

  it.each([
    '/',
    '/@vite/client',
    '/__vitest__/',
    '/__vitest_test__/__test__/abc',
    '/@fs/work/src/world/runtime.ts?import',
    '/?file=/__open-in-editor',
    '/src/a.ts#/__open-in-editor',
    '/%zz',
  ])('serves %s', (url) => {
    expect(isHostActionUrl(url)).toBe(false)
  })
})

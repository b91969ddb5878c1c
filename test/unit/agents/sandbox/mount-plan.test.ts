// The sandbox's mount plan: outer mounts before inner ones, hidden paths covered wherever a shown folder holds them,
// nothing inside a hidden path shown, redundant binds dropped. Pure: no bubblewrap here (agent-sandbox.test.ts runs it).
import { describe, expect, it } from 'vitest'
import { bwrapArgs, mountPlan, type MountOp } from '../../../../src/agents/sandbox/index.ts'

const SYSTEM: MountOp[] = [{ kind: 'ro-bind', source: '/usr', path: '/usr' }, { kind: 'symlink', target: 'usr/bin', path: '/bin' }]
const ro = (path: string, real = path) => ({ path, real })

describe('mountPlan', () => {
  it('layers /tmp, HOME, read-only paths and the workspace by depth, so inner mounts land on top', () => {
    const ops = mountPlan({
      system: SYSTEM,
      privateDirs: ['/home/u'],
      readOnly: [ro('/home/u/.claude/.credentials.json'), ro('/opt/node')],
      workspace: '/tmp/awb-agent-1',
      hidden: [],
    })
    expect(ops).toEqual([
      ...SYSTEM,
      { kind: 'tmpfs', path: '/tmp' },
      { kind: 'tmpfs', path: '/home/u' },
      { kind: 'ro-bind', source: '/opt/node', path: '/opt/node' },
      { kind: 'bind', source: '/tmp/awb-agent-1', path: '/tmp/awb-agent-1' },
      { kind: 'ro-bind', source: '/home/u/.claude/.credentials.json', path: '/home/u/.claude/.credentials.json' },
    ])
  })

  it('covers a hidden folder or file inside a shown folder, and never shows anything inside a hidden path', () => {
    const ops = mountPlan({
      system: SYSTEM,
      privateDirs: [],
      readOnly: [ro('/srv/app/node_modules'), ro('/srv/bench/tools'), ro('/srv/app/bin/agent', '/srv/app/node_modules/x/agent.js')],
      workspace: '/tmp/ws',
      hidden: [{ path: '/srv/app/node_modules/assembly-world-bench/fixtures', isDirectory: true }, { path: '/srv/app/node_modules/answers.json', isDirectory: false }, { path: '/srv/bench', isDirectory: true }],
    })
    expect(ops).not.toContainEqual(expect.objectContaining({ source: '/srv/bench/tools' }))
    expect(ops.slice(-2)).toEqual([
      { kind: 'tmpfs', path: '/srv/app/node_modules/assembly-world-bench/fixtures' },
      { kind: 'mask-file', path: '/srv/app/node_modules/answers.json' },
    ])
    // The real file is already shown by its node_modules; its other name is bound on its own.
    expect(ops).toContainEqual({ kind: 'ro-bind', source: '/srv/app/node_modules/x/agent.js', path: '/srv/app/bin/agent' })
    expect(ops).not.toContainEqual({ kind: 'ro-bind', source: '/srv/app/node_modules/x/agent.js', path: '/srv/app/node_modules/x/agent.js' })
    // A hidden folder lying in no shown folder needs no cover: it is not there at all.
    expect(ops).not.toContainEqual({ kind: 'tmpfs', path: '/srv/bench' })
  })

  it('bubblewrap options: every namespace but the network, the program as init, dying with the harness', () => {
    const args = bwrapArgs(mountPlan({ system: SYSTEM, privateDirs: [], readOnly: [], workspace: '/tmp/ws', hidden: [] }), '/tmp/ws')
    expect(args.slice(0, 5)).toEqual(['--unshare-all', '--share-net', '--die-with-parent', '--new-session', '--as-pid-1'])
    expect(args.slice(-2)).toEqual(['--chdir', '/tmp/ws'])
    expect(args.join(' ')).toContain('--proc /proc --dev /dev')
    expect(args.join(' ')).toContain('--bind /tmp/ws /tmp/ws')
  })
})

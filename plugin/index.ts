/// <reference types="vitest/config" />
// The Vitest plugin `assemblyWorld()`: reads the benchmark package, adds one browser project per block (named
// exactly after the block), the input route, the Node-side browser commands and the aggregate reporter.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { playwright } from '@vitest/browser-playwright'
import type { Plugin, ViteDevServer } from 'vite'
import { benchmarkLayout, OUTPUT_PROTOCOL } from '../src/evaluate/index.ts'
import { BenchmarkSession, createAgentRealmBundler, sampleAttachments } from '../src/harness/node/index.ts'
import type { BenchmarkPackage } from '../src/package/index.ts'
import { CHROMIUM_ARGS, findChromium } from '../src/shared/chromium.ts'
import { packageModule } from '../src/shared/package-root.ts'
import { PREBUNDLED_DEPENDENCIES } from '../src/shared/prebundled-dependencies.ts'
import { AggregateReporter } from '../reporters/aggregate-reporter.ts'
import { createBrowserCommands } from './browser-commands.ts'
import { freePorts } from './free-ports.ts'
import { createInputRoute, sharedInputGrants } from './input-route.ts'
import { assertKnownKeys, BUNDLED_BENCHMARK, isUnsandboxedRun, resolveOptions, thresholdsFor, type AssemblyWorldOptions } from './options.ts'
import { openPackageOnce } from './verify-progress.ts'
import { PerTestRun, RunningTests } from './running-tests.ts'
import { createServeGuard, earlierRunFolders, expandProtectedDirs, fsDenyPatterns, runProtectedDirs } from './serve-guard.ts'
import { insideAnswersFolder } from '../src/shared/answer-folders.ts'
import { refuseHostActions } from '../src/shared/host-actions.ts'
import type { BlockContext } from './types.ts'
import { missingVitestUiNotice } from './vitest-ui.ts'
import { blockOfConfiguredProject, drainOnInterrupt, guardBrowserApi, guardFsPathForms, guardRunCancel, installOfferedReporters, onRefusal, rememberVitest, offerReporters, recoveringPlaywright, refusedVitestCommands, reportCapabilitiesOnce, runningAdapter, stableShards, useBlockJUnit, verifyBlockProject, type PageLoss } from './vitest-compat/index.ts'

export type { AssemblyWorldOptions } from './options.ts'
export type { BlockContext, SampleMeta } from './types.ts'

/** The per-block test file every block project runs. */
const BLOCK_SUITE = packageModule('suites/benchmark-block.ts')
/** Allowance beyond the agent's own limit for opening, exporting and scoring one sample. */
const SAMPLE_OVERHEAD_MS = 180_000
/**
 * How long a block's browser session may take to connect and its tester page to load (Vitest's default, 60 s, fails
 * the whole block on a busy CI machine loading the page for the first time; seen at a load average of 19).
 */
const BLOCK_STARTUP_PATIENCE_MS = 180_000

export function assemblyWorld(options: AssemblyWorldOptions = {}): Plugin {
  let resolved: ReturnType<typeof resolveOptions> | undefined
  let opened: Promise<BenchmarkPackage> | undefined
  let reporter: AggregateReporter | undefined
  // Which Vitest runs this process: an unsupported one stops the run here, before anything starts.
  const vitestAdapter = runningAdapter()
  // A block whose page is lost (its Chromium killed or crashed) fails the sample in flight and goes on in a new page.
  // A page that hung past its time limit (an agent that never yields) was closed: its sample is the agent's timeout.
  const onPageLost = async (loss: PageLoss): Promise<void> => {
    const session = sessions.peek()
    if (session !== undefined) await (await session).pageLost(loss.block, loss.reason, loss.kind === 'page-hung' ? 'timeout' : 'interrupted')
  }
  /** Per block: closes its page when it stopped responding (installed by the recovering provider). */
  const closeHungPage = new Map<string, (reason: string) => Promise<void>>()
  // A block whose page cannot be recovered ends: what it has not finished is recorded failed, the others go on.
  const onBlockLost = async (end: { block: string; reason: string }): Promise<void> => {
    const session = sessions.peek()
    if (session !== undefined) await (await session).blockLost(end.block, end.reason)
  }
  const runningTests = new RunningTests({
    onTestEnded: (block, sampleId) => {
      void sessions.peek()?.then(open => open.abandonSample(block, sampleId, 'the test ended before its sample finished (the page crashed, was closed or timed out)'))
    },
  })

  const getResolved = (root: string) => (resolved ??= resolveOptions(options, process.env, root))
  // Verified once per process and package (the root config and every block project's run this), not per instance.
  const getPackage = (root: string) => (opened ??= openPackageOnce(getResolved(root).benchmark))
  // What no page, bundle or agent of the run may read (serve-guard.ts), the earlier runs it reads included.
  let protectedDirs: Promise<string[]> | undefined
  const getProtectedDirs = (root: string) => (protectedDirs ??= getPackage(root).then(async (pkg) => {
    const settings = getResolved(root)
    return runProtectedDirs({ ...settings, earlierRuns: await earlierRunFolders(settings) }, pkg.root)
  }))
  // The files page agents were bundled from: a change to one reruns the block projects in watch mode (the page never
  // imports them, so Vitest's module graph does not know them), and the Vite servers watch them.
  const agentInputs = new Set<string>()
  const viteServers: ViteDevServer[] = []
  const watchAgentInputs = (files: readonly string[]) => {
    for (const file of files) agentInputs.add(file)
    for (const server of viteServers) server.watcher.add([...files])
  }
  // One session, run folder and ledger per Vitest run: a watch-mode rerun records fresh attempts in a new folder.
  let sessionRoot = process.cwd()
  const sessions = new PerTestRun(run => openSession(sessionRoot, run))
  const getSession = (root: string) => {
    sessionRoot = root
    return sessions.get()
  }
  const openSession = async (root: string, run: number) => {
    const settings = getResolved(root)
    // The package config() opened and verified: verifying it again would only cost time.
    const pkg = await getPackage(root)
    const session = await BenchmarkSession.open({
      ...settings,
      // Resume is the first run's explicit choice: a watch-mode rerun attempts its samples afresh.
      ...(run > 1 ? { resume: undefined } : {}),
      pkg,
      inputs: sharedInputGrants(),
      // Page agents' code is bundled here, once per run (a rerun after an agent edit bundles the edit), and handed to
      // the page with each sample's start; no bundle may read what the page may not (defence:bundle-reads).
      agentRealm: createAgentRealmBundler({ root, protectedDirs: expandProtectedDirs(await getProtectedDirs(root)), onBundled: watchAgentInputs }),
      recordedOptions: { command: 'vitest', ...settings, argv: process.argv.slice(2) },
      awaitRunningTest: (block, sampleId) => runningTests.awaitRunning(block, sampleId),
      onPageHung: (block, reason) => {
        const close = closeHungPage.get(block)
        if (close === undefined) console.error(`awb: ${reason}; browser recovery is off, so the page stays: stop the run (Ctrl-C) and continue with AWB_RESUME`)
        else void close(reason)
      },
    })
    // Installed once samples run, after Vitest's own SIGINT listener exists (it exits at once); once per process, it
    // drains the run in progress (watch mode: between runs there is nothing to drain, and Ctrl-C quits).
    drainOnInterrupt(() => {
      if (!sessions.running) return false
      void sessions.peek()?.then(current => current.interrupt())
      return true
    }, line => console.error(line))
    return session
  }

  return {
    name: 'assembly-world-bench',
    async config(userConfig) {
      const root = resolve(userConfig.root ?? process.cwd())
      const settings = getResolved(root)
      if (settings.benchmark === BUNDLED_BENCHMARK && !existsSync(BUNDLED_BENCHMARK)) {
        // A checkout without the generated package can still run its own test projects.
        console.warn(`assemblyWorld: the bundled benchmark ${BUNDLED_BENCHMARK} is missing; generate it with \`npx awb fixtures --out fixtures/awb-mini\` or set AWB_BENCHMARK. No block projects were added.`)
        return {}
      }
      const pkg = await getPackage(root)
      assertKnownKeys(settings, pkg.blocks.map(block => block.name), pkg.sources)
      const shared = {
        optimizeDeps: { include: [...PREBUNDLED_DEPENDENCIES] },
        // Every Vite server of the run (the block projects' browser servers included) refuses the answers.
        server: { fs: { deny: fsDenyPatterns(await getProtectedDirs(root)) } },
      }
      // Vitest resolves each project's config through the same plugins: add projects only at the root.
      if (userConfig.test?.name !== undefined) return shared
      const chromium = findChromium()
      const commands = createBrowserCommands(() => getSession(root), project => verifyBlockProject(vitestAdapter, project))
      // One free port per block's browser server, so that none probes ports in use (see freePorts).
      const ports = await freePorts(pkg.blocks.length)
      const lockdown = (index: number) => vitestAdapter.apiLockdown(ports[index]!)
      const patience = vitestAdapter.startupPatience(BLOCK_STARTUP_PATIENCE_MS)
      // Blocks are independent: their browsers run at once (an agent mostly waits on its model), unless the user chose
      // a `maxWorkers` (the CLI's --maxWorkers wins over both). Vitest 5 reads it per project and at the root.
      const together = userConfig.test?.maxWorkers === undefined ? vitestAdapter.blocksTogether(pkg.blocks.length) : {}
      const projects = pkg.blocks.map((block, index) => ({
        extends: true as const,
        test: {
          name: block.name,
          include: [BLOCK_SUITE],
          // Installed, the suite lies in node_modules, which Vitest's default exclude list would drop.
          exclude: [],
          testTimeout: settings.sampleTimeoutSeconds * 1000 + SAMPLE_OVERHEAD_MS,
          ...together,
          provide: {
            awbBlock: {
              name: block.name,
              source: block.source,
              samples: block.samples.map(sample => ({ id: sample.id, slug: sample.slug })),
              thresholds: thresholdsFor(settings, block.name),
            } satisfies BlockContext,
          },
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            instances: [{ browser: 'chromium' as const }],
            // `--awb-block` (ignored by Chromium) names the block in the process list, e.g. to find one block's browser.
            provider: recoveringPlaywright(
              playwright({ launchOptions: { ...(chromium === undefined ? {} : { executablePath: chromium }), args: [...CHROMIUM_ARGS, `--awb-block=${block.name}`] } }),
              { block: block.name, onLost: onPageLost, onGiveUp: onBlockLost, log: line => console.error(line), exposeCloseHungPage: close => closeHungPage.set(block.name, close) },
              vitestAdapter,
            ),
            commands: { ...refusedVitestCommands(vitestAdapter), ...commands },
            ...lockdown(index).browser,
            ...patience.browser,
          },
          ...patience.test,
          // The page (the agent) writes nothing on the host: no snapshots, screenshots, traces or attachments,
          // and no CDP. The harness saves through its own commands. (Where the option lives depends on the major.)
          ...lockdown(index).test,
        },
      }))
      reporter ??= new AggregateReporter({
        layout: benchmarkLayout(pkg),
        gates: settings.gates,
        runsRoot: settings.runsRoot,
        protocol: OUTPUT_PROTOCOL,
        unsandboxed: isUnsandboxedRun(settings) ? `AWB_SANDBOX=off: the ${settings.agent} agent ran as a host process with your permissions, outside the OS sandbox` : undefined,
        outputs: { curves: settings.curves, baseline: settings.baseline, report: settings.report, scoringBackend: settings.scoringBackend },
        stepSummary: process.env.GITHUB_STEP_SUMMARY,
        thresholds: block => thresholdsFor(settings, block),
        runDir: async () => (await sessions.peek())?.runDir(),
        ledger: async () => (await sessions.peek())?.ledger,
        close: async (status, errors) => { await (await sessions.peek())?.close(status, errors) },
        // What Vitest's UI and html reporter show of each sample, from the run folder and the verified package.
        attachments: (block, sampleId, sampleDir) => sampleAttachments({ pkg, block, sampleId, sampleDir }),
      })
      offerReporters([reporter, runningTests, sessions])
      // What the gates refuse (a foreign socket, a page's cancel) is a run error, whichever Vite server refused it.
      const aggregate = reporter
      onRefusal(message => aggregate.recordRefusal(message))
      // An agent module is no test's import: a change to a file its bundle was built from reruns the block suite.
      const agentEdits = { pattern: /./, testsToRun: (file: string) => (agentInputs.has(file) ? BLOCK_SUITE : undefined) }
      // All blocks run one file: `--shard` must still give every block to exactly one shard (vitest-compat/block-shards.ts).
      const sequence = { sequencer: stableShards(userConfig.test?.sequence?.sequencer) }
      return { ...shared, test: { ...together, projects, sequence, watchTriggerPatterns: [agentEdits] } }
    },
    configureVitest({ vitest, project }) {
      // The browser API gate checks sessions against the run's Vitest. No page cancels the run (only Vitest's own --bail, counted in Node).
      rememberVitest(vitest)
      if (project === undefined || blockOfConfiguredProject(project) === undefined) {
        const notice = missingVitestUiNotice(vitest)
        if (notice !== undefined) console.error(notice)
      }
      guardRunCancel(vitest)
      // Before the first sample: a block project without every integrity defence stops the run, naming the defence.
      if (blockOfConfiguredProject(project) !== undefined) {
        verifyBlockProject(vitestAdapter, project)
        reportCapabilitiesOnce(vitestAdapter, project, line => console.error(line))
      }
      // The aggregate reporter is in every run, whatever the reporter selection, and in --merge-reports.
      installOfferedReporters(vitest)
      // JUnit names suites and classnames after the test file, which all block projects share: name them after the block.
      // A sample the stopped run did not start is skipped with Node's stop reason (a session that failed to open has none).
      useBlockJUnit(vitest, vitestAdapter, () => sessions.peek()?.then(open => open.stopReason, () => undefined))
    },
    configResolved(config) {
      // Every Vite server of the run judges file paths in their canonical form too (`/./`, `x/../`, symlinks).
      // And refuses whatever lies in a folder that holds answers: a run or report copied into the project.
      if (opened !== undefined) guardFsPathForms(config, insideAnswersFolder)
    },
    configureServer(server) {
      // The package was opened (and verified) by config(); a failure there already stopped the run.
      if (opened === undefined || resolved === undefined || protectedDirs === undefined) return
      // Its watcher (watch mode) also watches the agent's files bundled so far and to come.
      viteServers.push(server)
      if (agentInputs.size > 0) server.watcher.add([...agentInputs])
      // Vitest's browser API and Vite's HMR socket only from the run's own pages, each for its own project.
      guardBrowserApi(server)
      // No page or local process makes this machine start a program (Vite's /__open-in-editor): src/shared/host-actions.ts.
      server.middlewares.use(refuseHostActions)
      // Before Vite's own middlewares: nothing of the package, the runs or the demonstrations leaves this server.
      const guard = protectedDirs.then(dirs => createServeGuard({ root: server.config.root, protectedDirs: expandProtectedDirs(dirs) }))
      server.middlewares.use((req, res, next) => {
        // Fails closed: if the package could not be opened, nothing is served (the run stops on that error anyway).
        void guard.then(handle => handle(req, res, next), () => {
          res.statusCode = 503
          res.end('assembly-world-bench: the benchmark package could not be opened, so this server serves nothing')
        })
      })
      const route = opened.then(pkg => createInputRoute(pkg, sharedInputGrants()))
      server.middlewares.use((req, res, next) => {
        void route.then(handle => handle(req, res, next), () => next())
      })
    },
  }
}

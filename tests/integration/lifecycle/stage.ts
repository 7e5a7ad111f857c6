// An emulator in this process (port 0) and a deployment configured against it as a stack's config
// configures one: the seeded OAuth app's client credentials, a short consistency window. The rows
// reach the account through `env` (env.ts): as a program, through the stage's engine, and as a
// person, through the REST API with the account's API key.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../../../emulator/src";
import type { ClientOverrides } from "../../../provider/account/client";
import { Deployment } from "../../../provider/account/deployment";
import { type Client, client } from "../../emulator/helpers";
import { Engine } from "./engine";

export interface StageOptions {
  /** The emulator's consistency lag (ms): how long a new object stays hidden. */
  lagMs?: number;
  /** `pagerduty:consistencyWindow` (s): how long the provider waits for an object it knows is young. */
  windowSeconds: number;
}

export class Stage {
  /** Warnings the provider gave, as the engine would print them. */
  readonly warnings: string[] = [];
  readonly api: Client;
  readonly engine: Engine;
  private readonly deployments: Deployment[] = [];

  private constructor(
    readonly emu: RunningEmulator,
    private readonly options: StageOptions,
    private readonly journalDir: string,
  ) {
    this.api = client(emu, `Token token=${emu.seed.apiKey}`);
    this.engine = new Engine(this.deployment());
  }

  static async start(options: StageOptions): Promise<Stage> {
    // Rows run at once: the per-app rate limit is not what this table tests.
    const emu = await startEmulator({ port: 0, rateLimit: 1_000_000, ...(options.lagMs ? { lag: { ms: options.lagMs } } : {}) });
    const stage = new Stage(emu, options, fs.mkdtempSync(path.join(os.tmpdir(), "ppd-lifecycle-")));
    await stage.deployments[0].verifyCredentials();
    return stage;
  }

  /** A deployment as a provider process configures it; each process journals to the stage's directory. */
  private deployment(clients?: ClientOverrides): Deployment {
    const d = new Deployment({ warn: async (m) => void this.warnings.push(m), journalDir: this.journalDir, env: {}, ...(clients ? { clients } : {}) });
    const config: Record<string, string> = {
      "pagerduty:apiUrl": this.emu.apiUrl,
      "pagerduty:authUrl": this.emu.authUrl,
      "pagerduty:subdomain": this.emu.seed.account.subdomain,
      "pagerduty:serviceRegion": this.emu.seed.account.region,
      "pagerduty:clientId": this.emu.seed.oauth.clientId,
      "pagerduty:clientSecret": this.emu.seed.oauth.clientSecret,
      "pagerduty:consistencyWindow": String(this.options.windowSeconds),
    };
    d.configure((k) => config[k]);
    this.deployments.push(d);
    return d;
  }

  /**
   * The engine of a later process (`pulumi refresh` after `up`): it knows only what the state
   * records. `clients`: its transport (a test's recording dispatcher).
   */
  laterProcess(clients?: ClientOverrides): Engine {
    return new Engine(this.deployment(clients));
  }

  /** Every credential of the account: none may appear in a state. */
  get secrets(): string[] {
    return [this.emu.seed.oauth.clientSecret, this.emu.seed.apiKey];
  }

  async close(): Promise<void> {
    await Promise.all(this.deployments.map((d) => d.reset()));
    await this.emu.close();
    fs.rmSync(this.journalDir, { recursive: true, force: true });
  }
}

/**
 * A stage for one test file's tests (tests/integration/kinds/): started before them, closed after
 * them. No lag, and a consistency window of 0: a 404 is believed after the second looks.
 */
export function useStage(): () => Stage {
  let stage: Stage | undefined;
  beforeAll(async () => {
    stage = await Stage.start({ windowSeconds: 0 });
  });
  afterAll(() => stage?.close());
  return () => {
    if (!stage) throw new Error("the stage did not start");
    return stage;
  };
}

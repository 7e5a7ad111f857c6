// One account as resource code sees it: everything that lives longer than one call and belongs to
// the account (its client with the token, rate budget and connections; the refresh listings; the
// event-rule lanes; its custom field definitions; what was learnt about the account once per
// process) and the deployment's journal and stack state. Resource code gets it handed; nothing of it lives in module
// globals, so two accounts never share a budget, a listing or a lane, and a test builds one instead of patching.
import { DEFAULT_ACCOUNT, DEFAULT_WINDOW_MS } from "../config";
import type { ApiClient } from "../http/client";
import { DriftRecords } from "../kernel/drift";
import { Consistency } from "../kernel/consistency";
import { FieldDefinitions } from "./field-definitions";
import { Journal } from "./journal";
import { Listings } from "./listings";
import { RuleLanes } from "./rule-lanes";
import type { StackState } from "./stack-state";

export type Warn = (message: string) => void | Promise<void>;

export interface ContextParts {
  /** The account's name (default: "default", the top-level settings). */
  account?: string;
  client: ApiClient;
  /** This machine's intent journal (default: the user's cache directory). */
  journal?: Journal;
  /** The stack's own state, when the program names its stack (a function: configure may name it later). */
  stack?: StackState | (() => StackState | undefined);
  /** Where warnings go (the engine's log in a deployment). */
  warn?: Warn;
  /** Whether refresh also reports drift of fields the program leaves unset (`pagerduty:driftAllFields`). */
  driftAllFields?: boolean | (() => boolean);
  /** How long after its create an object may stay invisible (kernel/consistency.ts; default: the US window). */
  consistency?: Consistency;
}

export class AccountContext {
  readonly account: string;
  readonly client: ApiClient;
  readonly journal: Journal;
  readonly warn: Warn;
  readonly listings: Listings;
  /** Custom field definitions: listed, declared by the program, created by this process. */
  readonly fields: FieldDefinitions;
  readonly lanes = new RuleLanes();
  readonly drift = new DriftRecords();
  /** The account's eventual consistency: how 404s and empty searches of young objects are waited out. */
  readonly consistency: Consistency;
  private readonly memos = new Map<string, Promise<unknown>>();
  private readonly warned = new Set<string>();

  constructor(parts: ContextParts) {
    this.account = parts.account ?? DEFAULT_ACCOUNT;
    this.client = parts.client;
    this.journal = parts.journal ?? new Journal();
    this.warn = parts.warn ?? ((m) => void process.stderr.write(`warning: ${m}\n`));
    this.listings = new Listings(this.client);
    this.fields = new FieldDefinitions(this.client);
    this.consistency = parts.consistency ?? new Consistency({ windowMs: DEFAULT_WINDOW_MS.us });
    const { stack, driftAllFields } = parts;
    this.stackOf = typeof stack === "function" ? stack : () => stack;
    this.driftOf = typeof driftAllFields === "function" ? driftAllFields : () => driftAllFields ?? false;
  }

  private readonly stackOf: () => StackState | undefined;
  private readonly driftOf: () => boolean;

  /** The stack's own state, when the program named its stack. */
  get stack(): StackState | undefined {
    return this.stackOf();
  }

  /** Whether refresh also reports drift of fields the program leaves unset. */
  get driftAllFields(): boolean {
    return this.driftOf();
  }

  /**
   * What `learn` finds out about the account, asked once per process (escalation policies that
   * exist); a failure is forgotten so the next caller asks again.
   */
  once<T>(key: string, learn: () => Promise<T>): Promise<T> {
    let found = this.memos.get(key) as Promise<T> | undefined;
    if (!found) {
      found = learn();
      found.catch(() => this.memos.delete(key));
      this.memos.set(key, found);
    }
    return found;
  }

  /** A warning given once per process under `key` (a journal that cannot be written, say). */
  async warnOnce(key: string, message: string): Promise<void> {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    await this.warn(message);
  }
}

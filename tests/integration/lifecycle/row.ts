// What one row of the lifecycle table says about a kind: the inputs of a create, how a person
// changes it by hand, the in-place update, the change that replaces it, how an existing object is
// taken over, what delete leaves, how it disappears, and its young-object lag. The driver (driver.ts)
// runs every row the same way; a step that does not apply to a kind is `notApplicable(reason)`, never
// left out, and tests/unit/provider/registry.test.ts holds every row to that.
import type { z } from "zod";
import type { Definition } from "../../../provider/operations/resource";
import type { Client } from "../../emulator/helpers";
import type { Deployed } from "./engine";

/** The inputs a program declares for a kind, as its definition types them. */
export type Declared<D extends Definition = Definition> = z.input<D["inputs"]>;

/** A step that does not apply to a kind, and why. */
export interface NotApplicable {
  notApplicable: string;
}

export const notApplicable = (reason: string): NotApplicable => ({ notApplicable: reason });

export const isApplicable = <T>(step: T | NotApplicable): step is T => !(typeof step === "object" && step !== null && "notApplicable" in step);

/** What a row's functions are given: the account as a person and as a program reach it. */
export interface Env {
  /** The REST API with the account's API key, as a person (or another tool) uses it. */
  api: Client;
  /** The seeded escalation policy. */
  policy: string;
  /** A name no other row or step uses, for what the account keeps unique (service names, field names). */
  unique(label: string): string;
  /** A new service declared by the program (created through the Service provider): its id. */
  service(): Promise<string>;
  /** A service made by hand through the REST API: its id. */
  handService(): Promise<string>;
  /** The warnings the provider gave so far, as the engine prints them. */
  readonly warnings: readonly string[];
}

/** A live object as the REST API shows its managed fields, or undefined when the API answers 404. */
export type Live = Record<string, unknown> | undefined;

export interface Row<D extends Definition = Definition> {
  definition: D;
  /** The inputs of the first create; prerequisites (services) are made through `env`. */
  create(env: Env): Promise<Declared<D>>;
  /** The object's managed fields through the REST API (undefined: 404, or left out of its listing). */
  live(env: Env, r: Deployed): Promise<Live>;
  /**
   * A change a person makes through the REST API: refresh must find it and `up` put it back.
   * `removes`: the change takes the object away, so refresh drops it and `up` makes it again.
   */
  handChange: { make(env: Env, r: Deployed): Promise<void>; removes?: true } | NotApplicable;
  /** A change of managed fields that updates in place, and what the REST API then shows (of the new inputs). */
  update: { inputs(env: Env, declared: Declared<D>): Promise<Declared<D>>; live(declared: Declared<D>): Record<string, unknown> } | NotApplicable;
  /** A change of an input the definition replaces on. */
  replace: { inputs(env: Env, declared: Declared<D>): Promise<Declared<D>> } | NotApplicable;
  /** An object made by hand through the REST API, and the inputs that declare it as it is. */
  handMade(env: Env): Promise<{ id: string; declared: Declared<D> }>;
  /**
   * Taking the hand-made object over with `up`: by its `adoptId`, or by a plain create (a setting of
   * a service, or an object the API answers again when asked to make it twice). `inputs` may change
   * a managed field, which the take-over must then write; `live` is what the REST API shows after.
   */
  adopt: { by: "adoptId" | "create"; inputs(declared: Declared<D>): Declared<D>; live: Record<string, unknown> } | NotApplicable;
  /** `pulumi import` of the hand-made object by the definition's import id (the plugin reads it with empty state). */
  import: { by: "import id" } | NotApplicable;
  /** Checks through the REST API what a delete of `r` left: the object gone, or the setting restored. */
  deleted(env: Env, r: Deployed): Promise<void>;
  /**
   * How the object disappears for the reads that must then report it gone: its own delete, or (a
   * setting of a service, which a delete restores rather than removes) its service deleted by hand.
   */
  gone: { by: "its delete" } | { by: "its service deleted by hand"; service(r: Deployed): string };
  /**
   * The young-object lag: with the emulator hiding new objects, either the object itself is hidden
   * right after its create (a later read must wait it out), or its service is (its create must).
   */
  lag: { hidden: "object" } | { hidden: "service"; service(declared: Declared<D>): string } | NotApplicable;
}

/** The steps of every row, in the order the driver runs them (the lag runs against its own emulator). */
export const STEPS = [
  "create",
  "refresh shows no diff",
  "a hand change is found and put back",
  "an in-place update",
  "a replacement",
  "adoption",
  "import",
  "delete",
  "read and delete after it is gone",
  "young-object lag",
] as const;

export type Step = (typeof STEPS)[number];

/** The row's entry each step reads, where a step may be declared not applicable. */
export const OPTIONAL: Partial<Record<Step, "handChange" | "update" | "replace" | "adopt" | "import" | "lag">> = {
  "a hand change is found and put back": "handChange",
  "an in-place update": "update",
  "a replacement": "replace",
  adoption: "adopt",
  import: "import",
  "young-object lag": "lag",
};

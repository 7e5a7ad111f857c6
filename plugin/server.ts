// The plugin's gRPC server: Pulumi's ResourceProvider service, from the SDK's own generated protos
// (@pulumi/pulumi/proto) over its @grpc/grpc-js (both resolved from @pulumi/pulumi's directory, so
// they are the SDK's instances), answering with the package's provider (provider.ts).
// Not @pulumi/pulumi/provider's server, for three reasons: its module loads the SDK's runtime
// (resources, outputs, the runtime's settings) for Construct and Call, which this package does not
// serve, and that was most of the plugin's start before it printed its port (docs/benchmarks.md);
// it answers Configure without reading the request, so a provider never sees its settings; and it
// fails a Read without state, which is what `pulumi import` sends. Both gaps were closed from
// outside by patching the server's prototypes. Here the messages are read as the engine sends them:
// Configure's variables, a Read's absent properties as none.
// The provider is made on first use (`provider()`), so the port is printed before the package's
// modules load; GetPluginInfo and GetSchema answer without them.
import * as path from "node:path";

type Props = Record<string, unknown>;
type Callback = (error: unknown, value?: unknown, trailer?: unknown) => void;
/** A unary call as grpc-js hands it: the request message, with the generated getters. */
type Call = { request: Message };
type Message = Record<string, (...a: never[]) => unknown>;

/** What the server calls: the package's provider (provider.ts), typed by what the wire needs. */
export interface ServedProvider {
  configure(variables: ReadonlyMap<string, string>): Promise<void>;
  check(urn: string, olds: Props, news: Props): Promise<{ inputs?: Props; failures?: Failure[] }>;
  diff(id: string, urn: string, olds: Props, news: Props): Promise<{ changes?: boolean; replaces?: string[]; deleteBeforeReplace?: boolean }>;
  create(urn: string, inputs: Props): Promise<{ id: string; outs?: Props }>;
  read(id: string, urn: string, state?: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  update(id: string, urn: string, olds: Props, news: Props): Promise<{ outs?: Props }>;
  delete(id: string, urn: string, state: Props): Promise<void>;
  invoke(tok: string, args: Props): Promise<{ outputs?: Props; failures?: Failure[] }>;
}

interface Failure {
  property: string;
  reason: string;
}

export interface ServerOptions {
  version: string;
  /** The package schema (JSON text), read on the first GetSchema. */
  schema: () => string;
  /** The provider, made on the first call that needs it. */
  provider: () => ServedProvider;
  /** An error whose message says all (this package's typed errors): no stack trace on stderr. */
  expected: (e: unknown) => boolean;
  /** Where the port goes (default: the first line of stdout, where the engine reads it). */
  announce?: (port: number) => void;
}

/** A server that is listening: its port, and how to stop it (tests). */
export interface Serving {
  port: number;
  stop(): void;
}

/** The SDK's modules, as the SDK itself loads them. */
function sdkModules() {
  const sdk = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const load = <T>(id: string): T => require(require.resolve(id, { paths: [sdk] })) as T;
  return {
    grpc: load<typeof import("@grpc/grpc-js")>("@grpc/grpc-js"),
    service: load<{ ResourceProviderService: import("@grpc/grpc-js").ServiceDefinition }>("@pulumi/pulumi/proto/provider_grpc_pb"),
    proto: load<Record<string, new () => Message>>("@pulumi/pulumi/proto/provider_pb"),
    plugin: load<{ PluginInfo: new () => Message }>("@pulumi/pulumi/proto/plugin_pb"),
    status: load<{ Status: new () => Message }>("@pulumi/pulumi/proto/status_pb"),
    any: load<{ Any: new () => Message }>("google-protobuf/google/protobuf/any_pb"),
    empty: load<{ Empty: new () => Message }>("google-protobuf/google/protobuf/empty_pb"),
    struct: load<{ Struct: { fromJavaScript(v: Props): Message } }>("google-protobuf/google/protobuf/struct_pb"),
  };
}

/** Sets message fields by their generated setters: `set(msg, { Id: "x" })` calls `msg.setId("x")`. */
function set<M extends Message>(msg: M, fields: Record<string, unknown>): M {
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) (msg[`set${name}`] as (v: unknown) => void)(value);
  return msg;
}

const get = <T>(msg: Message, name: string): T => (msg[`get${name}`] as () => T)();

/** A Struct field as plain JavaScript; absent (a Read of `pulumi import`) as empty. */
const props = (msg: Message, name: string): Props => get<{ toJavaScript(): Props } | undefined>(msg, name)?.toJavaScript() ?? {};

/** Starts the server on a free loopback port and prints the port, as the engine expects of a plugin. */
export async function serve(options: ServerOptions): Promise<Serving> {
  const m = sdkModules();
  const { proto } = m;
  const struct = (v: Props | undefined) => (v === undefined ? undefined : m.struct.Struct.fromJavaScript(v));
  const failures = (list: Failure[] | undefined) => list?.map((f) => set(new proto.CheckFailure(), { Property: f.property, Reason: f.reason }));

  /** An operation's error: logged with its stack unless it is one of ours, and handed to the engine. */
  const failed = (callback: Callback, e: unknown) => {
    if (!options.expected(e)) console.error(e instanceof Error ? (e.stack ?? String(e)) : String(e));
    callback(e);
  };
  /**
   * A create's or an update's error. One that carries the object it made (`id`, `properties`: a later
   * step failed after the create) goes to the engine as ErrorResourceInitFailed, so the state records it.
   */
  const writeFailed = (callback: Callback, e: unknown) => {
    const made = e as { id?: string; properties?: Props; reasons?: string[]; message?: string };
    if (!made?.id) return failed(callback, e);
    if (!options.expected(e)) console.error((e as Error).stack ?? String(e));
    const detail = set(new proto.ErrorResourceInitFailed(), { Id: made.id, Properties: struct(made.properties ?? {}), ReasonsList: made.reasons ?? [] });
    const any = new m.any.Any();
    (any.pack as (bytes: Uint8Array, name: string) => void)((detail.serializeBinary as () => Uint8Array)(), "pulumirpc.ErrorResourceInitFailed");
    const status = set(new m.status.Status(), { Code: m.grpc.status.UNKNOWN, Message: made.message ?? "" });
    (status.addDetails as (d: Message) => void)(any);
    const metadata = new m.grpc.Metadata();
    metadata.add("grpc-status-details-bin", Buffer.from((status.serializeBinary as () => Uint8Array)()));
    callback({ code: m.grpc.status.UNKNOWN, message: made.message, metadata }, null, metadata);
  };
  /** A handler answering `reply(request)`, errors through `onError`. */
  const unary =
    (reply: (req: Message) => Promise<Message> | Message, onError = failed) =>
    (call: Call, callback: Callback) => {
      Promise.resolve()
        .then(() => reply(call.request))
        .then(
          (res) => callback(null, res),
          (e: unknown) => onError(callback, e),
        );
    };

  let schema: string | undefined;
  const provider = () => options.provider();
  const handlers = {
    getPluginInfo: unary(() => set(new m.plugin.PluginInfo(), { Version: options.version })),
    getSchema: unary((req) => {
      if (get<number>(req, "Version") !== 0) throw new Error(`unsupported schema version ${get<number>(req, "Version")}`);
      return set(new proto.GetSchemaResponse(), { Schema: (schema ??= options.schema()) });
    }),
    configure: unary(async (req) => {
      const variables = new Map<string, string>();
      get<{ forEach(f: (v: string, k: string) => void): void }>(req, "VariablesMap").forEach((v, k) => variables.set(k, v));
      await provider().configure(variables);
      return set(new proto.ConfigureResponse(), { Acceptsecrets: true, Acceptresources: true, Acceptoutputs: true });
    }),
    check: unary(async (req) => {
      const news = props(req, "News");
      const r = await provider().check(get(req, "Urn"), props(req, "Olds"), news);
      return set(new proto.CheckResponse(), { Inputs: struct(r.inputs ?? news), FailuresList: failures(r.failures) });
    }),
    diff: unary(async (req) => {
      const r = await provider().diff(get(req, "Id"), get(req, "Urn"), props(req, "Olds"), props(req, "News"));
      const { DiffChanges } = proto.DiffResponse as unknown as { DiffChanges: Record<"DIFF_SOME" | "DIFF_NONE" | "DIFF_UNKNOWN", number> };
      const changes = r.changes === true ? DiffChanges.DIFF_SOME : r.changes === false ? DiffChanges.DIFF_NONE : DiffChanges.DIFF_UNKNOWN;
      return set(new proto.DiffResponse(), {
        Changes: changes,
        ReplacesList: r.replaces?.length ? r.replaces : undefined,
        Deletebeforereplace: r.deleteBeforeReplace || undefined,
      });
    }),
    create: unary(async (req) => {
      const r = await provider().create(get(req, "Urn"), props(req, "Properties"));
      return set(new proto.CreateResponse(), { Id: r.id, Properties: struct(r.outs ?? {}) });
    }, writeFailed),
    read: unary(async (req) => {
      const r = await provider().read(get(req, "Id"), get(req, "Urn"), props(req, "Properties"));
      return set(new proto.ReadResponse(), { Id: r.id ?? "", Properties: struct(r.props), Inputs: struct(r.inputs) });
    }),
    update: unary(async (req) => {
      const r = await provider().update(get(req, "Id"), get(req, "Urn"), props(req, "Olds"), props(req, "News"));
      return set(new proto.UpdateResponse(), { Properties: struct(r.outs ?? {}) });
    }, writeFailed),
    delete: unary(async (req) => {
      await provider().delete(get(req, "Id"), get(req, "Urn"), props(req, "Properties"));
      return new m.empty.Empty();
    }),
    invoke: unary(async (req) => {
      const r = await provider().invoke(get(req, "Tok"), props(req, "Args"));
      return set(new proto.InvokeResponse(), { Return: struct(r.outputs ?? {}), FailuresList: failures(r.failures) });
    }),
    cancel: unary(() => new m.empty.Empty()),
    attach: unary(() => new m.empty.Empty()),
    // Every other method (CheckConfig, DiffConfig, Construct, Call, Parameterize, ...) answers
    // UNIMPLEMENTED, as @pulumi/pulumi/provider's server does: the engine then goes on without it.
  };

  const server = new m.grpc.Server({ "grpc.max_receive_message_length": 400 << 20 });
  server.addService(m.service.ResourceProviderService, handlers as unknown as import("@grpc/grpc-js").UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", m.grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  // The engine reads the port from the first line of stdout.
  (options.announce ?? ((p) => process.stdout.write(`${p}\n`)))(port);
  return { port, stop: () => server.forceShutdown() };
}

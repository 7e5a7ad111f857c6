// Two gaps of @pulumi/pulumi's provider server (@pulumi/pulumi/provider/server.js, 3.248), closed from outside
// because the server is not exported; tests/unit/plugin/server-shims.test.ts pins both to the
// installed version.
// - Configure: the server answers it without reading the request, so a provider never sees its
//   settings (an explicit provider resource's inputs reach the plugin nowhere else; PULUMI_CONFIG
//   holds the stack's config, not a provider resource's). The service's implementation is wrapped
//   as the gRPC server registers it, so our handler reads the request first.
// - Read without state: `pulumi import` sends a ReadRequest with no `properties`, and the server's
//   `req.getProperties().toJavaScript()` fails ("Cannot read properties of undefined (reading
//   'toJavaScript')"). An absent field is read as an empty one.
import * as path from "node:path";

type Message = { [name: string]: unknown };
type Callback = (error: unknown, value?: unknown) => void;
type Handler = (call: { request: Message }, callback: Callback) => void;

/** The modules the server itself loads: resolved from @pulumi/pulumi's own directory, so they are the same instances. */
function serverModules() {
  const sdk = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const load = <T>(id: string): T => require(require.resolve(id, { paths: [sdk] })) as T;
  return {
    grpc: load<{ Server: { prototype: { addService(service: unknown, impl: object): void } } }>("@grpc/grpc-js"),
    provrpc: load<{ ResourceProviderService: unknown }>("@pulumi/pulumi/proto/provider_grpc_pb"),
    provproto: load<{ ReadRequest: { prototype: Record<string, (...a: unknown[]) => unknown> } }>("@pulumi/pulumi/proto/provider_pb"),
    struct: load<{ Struct: new () => unknown }>("google-protobuf/google/protobuf/struct_pb"),
  };
}

let installed = false;

/**
 * Installs both shims (once per process, before `main` starts the server). `configure` receives
 * the request's variables (`pagerduty-dynamic:clientId` -> value; objects as JSON) before the
 * server answers; its failure fails the Configure call.
 */
export function installServerShims(configure: (variables: Map<string, string>) => Promise<void>): void {
  if (installed) return;
  installed = true;
  const { grpc, provrpc, provproto, struct } = serverModules();

  const read = provproto.ReadRequest.prototype;
  for (const getter of ["getProperties", "getInputs"]) {
    const original = read[getter];
    read[getter] = function (this: unknown, ...args: unknown[]) {
      return original.apply(this, args) ?? new struct.Struct();
    };
  }

  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (this: unknown, service: unknown, impl: object) {
    if (service !== provrpc.ResourceProviderService) return addService.call(this, service, impl);
    const original = (impl as Record<string, Handler>).configure;
    // The server's own object stays `this` of every other method (through the prototype chain).
    const wrapped = Object.create(impl) as Record<string, Handler>;
    wrapped.configure = (call, callback) => {
      configure(variablesOf(call.request)).then(
        () => original.call(wrapped, call, callback),
        (e: unknown) => callback(e),
      );
    };
    return addService.call(this, service, wrapped);
  };
}

function variablesOf(request: Message): Map<string, string> {
  const out = new Map<string, string>();
  const map = (request.getVariablesMap as () => { forEach(f: (v: string, k: string) => void): void })();
  map.forEach((v, k) => out.set(k, v));
  return out;
}

// The plugin's gRPC server against a real gRPC client of Pulumi's ResourceProvider service (the
// SDK's generated client, as the engine's Go client speaks the same protocol), on a loopback port.
import * as path from "node:path";
import { type ServedProvider, type Serving, serve } from "../../../plugin/server";
import { PagerDutyError } from "../../../provider/errors";

const sdk = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const load = (id: string) => require(require.resolve(id, { paths: [sdk] }));
const grpc = load("@grpc/grpc-js");
const rpc = load("@pulumi/pulumi/proto/provider_grpc_pb");
const proto = load("@pulumi/pulumi/proto/provider_pb");
const status = load("@pulumi/pulumi/proto/status_pb");
const { Struct } = load("google-protobuf/google/protobuf/struct_pb");
const { Empty } = load("google-protobuf/google/protobuf/empty_pb");

type Props = Record<string, unknown>;

/** What the provider saw, call by call. */
const seen: unknown[][] = [];
let made = 0;
const fake: ServedProvider = {
  configure: async (variables) => void seen.push(["configure", Object.fromEntries(variables)]),
  check: async (urn, olds, news) => {
    seen.push(["check", urn, olds, news]);
    return { inputs: { ...news, checked: true }, failures: [{ property: "name", reason: "name: too long" }] };
  },
  diff: async () => ({ changes: true, replaces: ["service"], deleteBeforeReplace: true }),
  create: async (urn, inputs) => {
    if (inputs.fail === "partial") throw Object.assign(new PagerDutyError("ERR_API", "the rule failed"), { id: "P1", properties: { name: "made" } });
    if (inputs.fail === "bug") throw new TypeError("a bug");
    return { id: "P2", outs: { ...inputs, urn } };
  },
  read: async (id, urn, state) => {
    seen.push(["read", id, urn, state]);
    return { id, props: { name: "found" }, inputs: { name: "found" } };
  },
  update: async (_id, _urn, _olds, news) => ({ outs: news }),
  delete: async (id) => void seen.push(["delete", id]),
  invoke: async (tok, args) => ({ outputs: { tok, ...args } }),
};

let serving: Serving;
let client: any;
const logged: string[] = [];
const error = console.error;

beforeAll(async () => {
  console.error = (...a: unknown[]) => void logged.push(a.join(" "));
  serving = await serve({
    version: "9.9.9",
    schema: () => '{"name":"pagerduty-dynamic"}',
    provider: () => {
      made++;
      return fake;
    },
    expected: (e) => e instanceof PagerDutyError,
    announce: () => undefined,
  });
  client = new rpc.ResourceProviderClient(`127.0.0.1:${serving.port}`, grpc.credentials.createInsecure());
});

afterAll(() => {
  console.error = error;
  client?.close();
  serving?.stop();
});

/** Calls `method` with `request`; the reply, or the error. */
function call(method: string, request: unknown): Promise<any> {
  return new Promise((resolve, reject) => client[method](request, (e: unknown, r: unknown) => (e ? reject(e) : resolve(r))));
}

const struct = (v: Props) => Struct.fromJavaScript(v);

test("version and schema are answered without making the provider", async () => {
  expect((await call("getPluginInfo", new Empty())).getVersion()).toBe("9.9.9");
  const req = new proto.GetSchemaRequest();
  expect((await call("getSchema", req)).getSchema()).toBe('{"name":"pagerduty-dynamic"}');
  req.setVersion(1);
  await expect(call("getSchema", req)).rejects.toMatchObject({ details: "unsupported schema version 1" });
  expect(made).toBe(0);
  logged.length = 0;
});

test("Configure hands the provider the variables of the request, and says what the provider accepts", async () => {
  const req = new proto.ConfigureRequest();
  req.getVariablesMap().set("pagerduty-dynamic:config:clientId", "abc");
  const res = await call("configure", req);
  expect(seen.pop()).toEqual(["configure", { "pagerduty-dynamic:config:clientId": "abc" }]);
  expect([res.getAcceptsecrets(), res.getAcceptresources(), res.getAcceptoutputs()]).toEqual([true, true, true]);
});

test("check and diff carry inputs, failures and the plan", async () => {
  const req = new proto.CheckRequest();
  req.setUrn("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::s");
  req.setNews(struct({ name: "n" }));
  const res = await call("check", req);
  expect(seen.pop()).toEqual(["check", "urn:pulumi:dev::p::pagerduty-dynamic:index:Service::s", {}, { name: "n" }]);
  expect(res.getInputs().toJavaScript()).toEqual({ name: "n", checked: true });
  expect(res.getFailuresList().map((f: any) => [f.getProperty(), f.getReason()])).toEqual([["name", "name: too long"]]);
  const diff = await call("diff", new proto.DiffRequest());
  expect([diff.getChanges(), diff.getReplacesList(), diff.getDeletebeforereplace()]).toEqual([proto.DiffResponse.DiffChanges.DIFF_SOME, ["service"], true]);
});

test("a Read without properties (what `pulumi import` sends) reads as empty state", async () => {
  const req = new proto.ReadRequest();
  req.setId("PSVC/PINT");
  req.setUrn("urn:x");
  const res = await call("read", req);
  expect(seen.pop()).toEqual(["read", "PSVC/PINT", "urn:x", {}]);
  expect([res.getId(), res.getProperties().toJavaScript(), res.getInputs().toJavaScript()]).toEqual(["PSVC/PINT", { name: "found" }, { name: "found" }]);
});

test("a create that made an object before failing reports it, so the engine records it; our error logs nothing, a bug its stack", async () => {
  const req = new proto.CreateRequest();
  req.setUrn("urn:x");
  req.setProperties(struct({ fail: "partial" }));
  const e = await call("create", req).catch((x) => x);
  expect(e.details).toBe("the rule failed");
  const details = status.Status.deserializeBinary(e.metadata.get("grpc-status-details-bin")[0]).getDetailsList();
  const init = proto.ErrorResourceInitFailed.deserializeBinary(details[0].getValue());
  expect([init.getId(), init.getProperties().toJavaScript()]).toEqual(["P1", { name: "made" }]);
  expect(logged).toEqual([]);

  req.setProperties(struct({ fail: "bug" }));
  await expect(call("create", req)).rejects.toMatchObject({ details: "a bug" });
  expect(logged).toEqual([expect.stringMatching(/^TypeError: a bug\n\s+at /)]);
  logged.length = 0;

  req.setProperties(struct({ name: "ok" }));
  const res = await call("create", req);
  expect([res.getId(), res.getProperties().toJavaScript()]).toEqual(["P2", { name: "ok", urn: "urn:x" }]);
});

test("delete and invoke reach the provider; methods the package does not serve answer UNIMPLEMENTED", async () => {
  const del = new proto.DeleteRequest();
  del.setId("P9");
  await call("delete", del);
  expect(seen.pop()).toEqual(["delete", "P9"]);
  const inv = new proto.InvokeRequest();
  inv.setTok("pagerduty-dynamic:index:getService");
  inv.setArgs(struct({ name: "x" }));
  expect((await call("invoke", inv)).getReturn().toJavaScript()).toEqual({ tok: "pagerduty-dynamic:index:getService", name: "x" });
  await expect(call("checkConfig", new proto.CheckRequest())).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
});

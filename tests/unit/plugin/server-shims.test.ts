// Pins the two gaps of @pulumi/pulumi's provider server that server-shims.ts closes, against the
// installed version: when an update closes them, these fail and the shims can go.
import * as fs from "node:fs";
import * as path from "node:path";
import { installServerShims } from "../../../plugin/server-shims";

const server = fs.readFileSync(require.resolve("@pulumi/pulumi/provider/server.js"), "utf8");

test("the installed server still ignores Configure's request and reads a Read's properties unguarded", () => {
  const configure = server.slice(server.indexOf("    configure(call, callback) {"), server.indexOf("    async parameterize("));
  expect(configure).not.toMatch(/call\.request/);
  expect(server).toContain("const props = req.getProperties().toJavaScript();");
});

test("the shims: a Read without properties reads as empty; Configure's variables reach our handler first", async () => {
  const seen: Array<Map<string, string>> = [];
  installServerShims(async (v) => void seen.push(v));
  const provproto = require("@pulumi/pulumi/proto/provider_pb");
  expect(new provproto.ReadRequest().getProperties().toJavaScript()).toEqual({});

  const grpc = require(require.resolve("@grpc/grpc-js", { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] }));
  const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
  const registered: Record<string, (call: unknown, cb: (e: unknown, v?: unknown) => void) => void> = {};
  const fake = {
    register: (p: string, impl: never) => {
      registered[p] = impl;
      return true;
    },
  };
  const answered: unknown[] = [];
  const impl = { configure: (_call: unknown, cb: (e: unknown, v: unknown) => void) => cb(undefined, "answered") };
  grpc.Server.prototype.addService.call(fake, provrpc.ResourceProviderService, impl);
  const req = new provproto.ConfigureRequest();
  req.getVariablesMap().set("pagerduty-dynamic:config:clientId", "abc");
  await new Promise<void>((resolve) =>
    registered["/pulumirpc.ResourceProvider/Configure"]({ request: req }, (e, v) => {
      answered.push(e, v);
      resolve();
    }),
  );
  expect(seen.map((m) => Object.fromEntries(m))).toEqual([{ "pagerduty-dynamic:config:clientId": "abc" }]);
  expect(answered).toEqual([undefined, "answered"]);
});

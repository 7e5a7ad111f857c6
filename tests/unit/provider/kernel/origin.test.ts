// One provenance key, made the same way through both doors: a hash of the URN the engine gives the
// resource. A TypeScript program computes that URN before it registers (sdk/origin.ts); the plugin
// reads it off Check. Under Pulumi's mocks, as a program runs.
import * as pulumi from "@pulumi/pulumi";
import { PackageProvider } from "../../../../plugin/provider";
import { originKey } from "../../../../provider/kernel/origin";
import { originOf } from "../../../../sdk/origin";

const value = <T>(o: pulumi.Output<T>) =>
  new Promise<T>((resolve) =>
    o.apply((v) => {
      resolve(v);
      return v;
    }),
  );

beforeAll(() =>
  pulumi.runtime.setMocks({ newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs }, "proj", "dev", false, "acme"),
);

test("the key is 32 hex digits of the URN, one per URN", () => {
  const a = originKey("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::a");
  expect(a).toMatch(/^[0-9a-f]{32}$/);
  expect(originKey("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::a")).toBe(a);
  expect(originKey("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::b")).not.toBe(a);
});

test("a program's key is the key of the URN the engine gives its resource, its parents' types included; the stack follows it", async () => {
  expect(await value(originOf("Service", "web"))).toBe(`${originKey("urn:pulumi:dev::proj::pulumi-nodejs:dynamic/pagerduty:Service::web")}@acme/proj/dev`);
  const parent = new pulumi.ComponentResource("acme:team:Team", "payments");
  expect(await value(originOf("Service", "web", { parent }))).toBe(
    `${originKey("urn:pulumi:dev::proj::acme:team:Team$pulumi-nodejs:dynamic/pagerduty:Service::web")}@acme/proj/dev`,
  );
});

test("the plugin gives a resource that creates an object the key of the URN the engine names", async () => {
  const urn = "urn:pulumi:dev::proj::acme:team:Team$pagerduty-dynamic:index:Service::web";
  const provider = new PackageProvider({ deployment: { warn: () => undefined, env: {} }, version: "1.0.0" });
  const checked = await provider.check(urn, {}, { name: 5 });
  expect(checked.inputs?.__origin).toBe(originKey(urn));
});

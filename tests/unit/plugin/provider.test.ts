import { kindOfUrn, originOfUrn, PackageProvider } from "../../../plugin/provider";
import { Deployment } from "../../../provider/account/deployment";

test("the kind comes from the URN's type, under a parent too", () => {
  expect(kindOfUrn("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::s")).toBe("Service");
  expect(kindOfUrn("urn:pulumi:dev::p::my:Component$pagerduty-dynamic:index:ServiceEventRule::r")).toBe("ServiceEventRule");
  expect(() => kindOfUrn("urn:pulumi:dev::p::pagerduty:index:Service::s")).toThrow(/unknown resource type/);
  expect(() => kindOfUrn("urn:pulumi:dev::p::pagerduty-dynamic:index:Nope::s")).toThrow(/unknown resource type/);
});

test("the provenance key is stable per URN and differs between URNs", () => {
  const a = originOfUrn("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::a");
  expect(a).toMatch(/^[0-9a-f]{32}$/);
  expect(originOfUrn("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::a")).toBe(a);
  expect(originOfUrn("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::b")).not.toBe(a);
});

describe("without settings", () => {
  const provider = new PackageProvider({ deployment: new Deployment({ warn: async () => {} }), version: "1.0.0", schema: async () => "{}" });

  test("an unknown function fails naming it; bad arguments are failures", async () => {
    await expect(provider.invoke("pagerduty-dynamic:index:getNothing", {})).rejects.toThrow(/unknown function/);
    await expect(provider.invoke("pagerduty-dynamic:index:getService", {})).resolves.toEqual({
      failures: [expect.objectContaining({ reason: expect.stringMatching(/^args\.name: /) })],
    });
  });

  test("a missing credential is worded in the package's keys", async () => {
    const r = await provider.invoke("pagerduty-dynamic:index:getService", { name: "x" });
    expect(r.failures?.[0].reason).toMatch(/"pagerduty-dynamic:clientId"/);
  });

  test("an input the schema refuses is a check failure", async () => {
    const r = await provider.check("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::s", {}, { name: 5 });
    expect(r.failures?.length).toBeGreaterThan(0);
  });
});

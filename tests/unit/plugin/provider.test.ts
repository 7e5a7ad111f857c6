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

  test("an input the schema refuses is a check failure", async () => {
    const r = await provider.check("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::s", {}, { name: 5 });
    expect(r.failures?.length).toBeGreaterThan(0);
  });
});

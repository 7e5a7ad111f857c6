import { kindOfUrn, PackageProvider } from "../../../plugin/provider";

test("the kind comes from the URN's type, under a parent too", () => {
  expect(kindOfUrn("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::s")).toBe("Service");
  expect(kindOfUrn("urn:pulumi:dev::p::my:Component$pagerduty-dynamic:index:ServiceEventRule::r")).toBe("ServiceEventRule");
  expect(() => kindOfUrn("urn:pulumi:dev::p::pagerduty:index:Service::s")).toThrow(/unknown resource type/);
  expect(() => kindOfUrn("urn:pulumi:dev::p::pagerduty-dynamic:index:Nope::s")).toThrow(/unknown resource type/);
});

describe("without settings", () => {
  const provider = new PackageProvider({ deployment: { warn: async () => {} }, version: "1.0.0" });

  test("an input the schema refuses is a check failure", async () => {
    const r = await provider.check("urn:pulumi:dev::p::pagerduty-dynamic:index:Service::s", {}, { name: 5 });
    // Each failure names the program's field it is about, in its text (toFailure: no `property`).
    expect(r.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^name: .*string/) },
      { property: "", reason: expect.stringMatching(/^escalationPolicy: /) },
    ]);
  });
});

describe("the stack the engine deploys", () => {
  const URN = "urn:pulumi:prod::billing::pagerduty-dynamic:index:Service::s";

  test("is named to the Deployment from the first URN; its organization is asked only when the state is read", async () => {
    const asked: Array<string | undefined> = [];
    const provider = new PackageProvider({
      deployment: { warn: async () => {} },
      version: "1.0.0",
      stackLookup: {
        env: { PULUMI_BACKEND_URL: "https://api.pulumi.com" },
        show: async (stack) => {
          asked.push(stack);
          return "acme/billing/prod\n";
        },
      },
    });
    const { deployment } = provider;
    expect(deployment.stack).toBeUndefined();
    await provider.check(URN, {}, { name: 5 });
    await provider.check("urn:pulumi:other::elsewhere::pagerduty-dynamic:index:Service::t", {}, { name: 5 });
    // A preview's checks ask nothing: the lookup waits for a create that reads the state.
    expect(asked).toEqual([]);
    await expect(deployment.stack?.name()).resolves.toBe("acme/billing/prod");
    await expect(deployment.stack?.name()).resolves.toBe("acme/billing/prod");
    expect(asked).toEqual([undefined]);
  });

  test("with a backend in storage the organization is the backend's, and no CLI is asked", async () => {
    const show = async () => {
      throw new Error("the CLI was asked");
    };
    const provider = new PackageProvider({
      deployment: { warn: async () => {} },
      version: "1.0.0",
      stackLookup: { env: { PULUMI_BACKEND_URL: "s3://state?region=us-east-1" }, show },
    });
    await provider.check(URN, {}, { name: 5 });
    await expect(provider.deployment.stack?.name()).resolves.toBe("organization/billing/prod");
  });
});
